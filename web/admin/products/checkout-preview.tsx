import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
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

/** What a customer would be offered at checkout, as saved now: variants, prices, gateways and trial. */
export function CheckoutPreview(props: { id: string }) {
  const [preview, setPreview] = useState<Preview>();
  const load = () =>
    unwrap(api.GET("/api/admin/products/{id}/checkout-preview", { params: { path: { id: props.id } } }));
  return (
    <>
      <ActionButton label="Preview checkout" run={load} describe={verdict} onDone={setPreview} />
      {preview ? <PreviewTable options={preview.checkout_options} /> : null}
    </>
  );
}

function PreviewTable(props: { options: Schemas["CheckoutOptions"] }) {
  const { variants, payment_gateways, default_payment_gateway, trial_days } = props.options;
  const gateways = payment_gateways
    .map((g) => (g === default_payment_gateway ? `${GATEWAY_NAMES[g]} (default)` : GATEWAY_NAMES[g]))
    .join(", ");
  if (variants.length === 0) return <p>No variant is for sale.</p>;
  return (
    <TableBox label="Variants at checkout" columns={["Variant", "Billing", "Price", "Currency", "Gateways", "Trial"]}>
      <tbody>
        {variants.map((v) => (
          <tr key={v.variant}>
            <th scope="row">{humanize(v.variant)}</th>
            <td>{billing(v)}</td>
            <td>{formatMoney(v.price, v.currency)}</td>
            <td>{v.currency}</td>
            <td>{gateways}</td>
            <td>{v.billing_interval && trial_days ? `${trial_days}-day free trial` : "No trial"}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
