import { PAYMENT_GATEWAYS, type PaymentGatewayName, type ProductDefinition } from "../catalog/product.ts";
import { NoCommonGateway } from "./errors.ts";

type GatewayChoice = Pick<ProductDefinition, "enabled_payment_gateways" | "default_payment_gateway">;

/**
 * The gateway router: the requested gateway when every item enables it; otherwise the items'
 * default gateway when they agree on one that all enable; otherwise the first gateway every item
 * enables. No common gateway at all is a 422.
 */
export function selectGateway(items: readonly GatewayChoice[], requested?: PaymentGatewayName): PaymentGatewayName {
  const common = PAYMENT_GATEWAYS.filter((gateway) =>
    items.every((item) => item.enabled_payment_gateways.includes(gateway)),
  );
  if (common.length === 0) throw new NoCommonGateway();
  if (requested && common.includes(requested)) return requested;
  const defaults = new Set(items.map((item) => item.default_payment_gateway));
  const [shared] = defaults;
  if (defaults.size === 1 && shared && common.includes(shared)) return shared;
  return common[0] as PaymentGatewayName;
}
