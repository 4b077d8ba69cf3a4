import { useState } from "preact/hooks";
import { ApiProblem, messageOf, type Schemas, unwrap } from "../../shared/api.ts";
import { Field } from "../../shared/fields.tsx";
import { formatMoney, humanize } from "../../shared/format.ts";
import { ActionButton, TableBox } from "../../shared/ui.tsx";
import { GATEWAY_NAMES } from "../choices.ts";
import { api } from "../context.ts";

type Preview = Schemas["CheckoutPreview"];
type Variant = Schemas["CheckoutVariant"];

const verdict = (preview: Preview) =>
  preview.purchasable
    ? "Customers can buy it as shown below."
    : preview.status !== "published"
      ? `Customers cannot buy it yet: it is ${humanize(preview.status)}.`
      : "Customers cannot buy it: no variant has a price.";

const billing = (v: Variant) =>
  v.payment_type === "subscription"
    ? `subscription, billed ${v.billing_interval}`
    : `one time, ${v.license_type} license`;

/** What a discount code does to one variant, as the checkout would price it; or why it is refused. */
async function withCode(productId: string, variant: Variant, code: string): Promise<string> {
  try {
    const priced = await unwrap(
      api.POST("/api/checkout/calculate", {
        body: { items: [{ product_id: productId, variant: variant.variant }], discount_code: code },
      }),
    );
    const discount = priced.discount;
    const first = `${formatMoney(priced.total, priced.currency)} (${formatMoney(priced.discount_total, priced.currency)} off)`;
    if (!discount || discount.renewal_full_amount === null) return first;
    const renewals =
      discount.renewal_amount === null
        ? `then ${formatMoney(discount.renewal_full_amount, priced.currency)}`
        : discount.payments === null
          ? `then ${formatMoney(discount.renewal_amount, priced.currency)} each renewal`
          : `then ${formatMoney(discount.renewal_amount, priced.currency)} for ${discount.payments - 1} more, ${formatMoney(discount.renewal_full_amount, priced.currency)} after`;
    return `${first}, ${renewals}`;
  } catch (error) {
    const refused = error instanceof ApiProblem ? error.fieldError("/discount_code") : undefined;
    return refused ? `The code ${refused}.` : messageOf(error);
  }
}

/**
 * What a customer would be offered at checkout, as saved now: variants, prices, gateways and trial;
 * with a discount code, what each variant would cost with it.
 */
export function CheckoutPreview(props: { id: string }) {
  const [preview, setPreview] = useState<{ preview: Preview; discounted: Record<string, string> }>();
  const [code, setCode] = useState("");
  const load = async () => {
    const found = await unwrap(
      api.GET("/api/admin/products/{id}/checkout-preview", { params: { path: { id: props.id } } }),
    );
    const typed = code.trim();
    const variants = found.checkout_options.variants;
    const priced = typed ? await Promise.all(variants.map((v) => withCode(props.id, v, typed))) : [];
    return { preview: found, discounted: Object.fromEntries(priced.map((text, i) => [variants[i]?.variant, text])) };
  };
  return (
    <>
      <Field label="Discount code (optional)" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      <ActionButton
        label="Preview checkout"
        run={load}
        describe={(found) => verdict(found.preview)}
        onDone={setPreview}
      />
      {preview ? <PreviewTable options={preview.preview.checkout_options} discounted={preview.discounted} /> : null}
    </>
  );
}

function PreviewTable(props: { options: Schemas["CheckoutOptions"]; discounted: Record<string, string> }) {
  const { variants, payment_gateways, default_payment_gateway, trial_days } = props.options;
  const gateways = payment_gateways
    .map((g) => (g === default_payment_gateway ? `${GATEWAY_NAMES[g]} (default)` : GATEWAY_NAMES[g]))
    .join(", ");
  if (variants.length === 0) return <p>No variant is for sale.</p>;
  const withCode = Object.keys(props.discounted).length > 0;
  const columns = [
    "Variant",
    "Billing",
    "Price",
    "Currency",
    "Gateways",
    "Trial",
    ...(withCode ? ["With the code"] : []),
  ];
  return (
    <TableBox label="Variants at checkout" columns={columns}>
      <tbody>
        {variants.map((v) => (
          <tr key={v.variant}>
            <th scope="row">{humanize(v.variant)}</th>
            <td>{billing(v)}</td>
            <td>{formatMoney(v.price, v.currency)}</td>
            <td>{v.currency}</td>
            <td>{gateways}</td>
            <td>{v.billing_interval && trial_days ? `${trial_days}-day free trial` : "No trial"}</td>
            {withCode ? <td>{props.discounted[v.variant]}</td> : null}
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
