import type { Schemas } from "../../shared/api.ts";
import { formatMoney, humanize } from "../../shared/format.ts";

/** "monthly $31.00, yearly $310.00", or that nothing is for sale. */
export function VariantPrices(props: { options: Schemas["CheckoutOptions"] }) {
  const { variants } = props.options;
  if (variants.length === 0) return <span class="note">Nothing for sale</span>;
  return <>{variants.map((v) => `${humanize(v.variant)} ${formatMoney(v.price, v.currency)}`).join(", ")}</>;
}
