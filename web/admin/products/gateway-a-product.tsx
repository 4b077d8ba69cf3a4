import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatMoney, humanize } from "../../shared/format.ts";
import { ActionButton, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";

type Sync = Schemas["GatewayProductSync"];

const said = (sync: Sync) =>
  `Gateway A product ${sync.remote_product_id} ${sync.product_action} in ${sync.environment}.`;

const money = (amount: number, currency: string | undefined) =>
  currency ? formatMoney(amount, currency) : `${amount} (minor units)`;

/** The product's counterpart at gateway A: create (or find and link) it, and set its prices. */
export function GatewayAProduct(props: { id: string; currency: string | undefined }) {
  const [sync, setSync] = useState<Sync>();
  const create = () => unwrap(api.POST("/api/admin/gateway_a/products/create", { body: { product_id: props.id } }));
  const push = () => unwrap(api.PUT("/api/admin/gateway_a/products/{id}/sync", { params: { path: { id: props.id } } }));
  return (
    <>
      <p class="hint">
        Creating looks for an existing gateway A product first, so pressing it twice makes one. Syncing sets the four
        variant prices from this product's pricing.
      </p>
      <p class="toolbar">
        <ActionButton label="Create on gateway A" run={create} describe={said} onDone={setSync} />
        <ActionButton label="Sync prices to gateway A" run={push} describe={said} onDone={setSync} />
      </p>
      {sync ? (
        <TableBox label="Gateway A prices" columns={["Variant", "Result", "Price", "Price id", "From"]}>
          <tbody>
            {sync.variants.map((v) => (
              <tr key={v.variant}>
                <th scope="row">{humanize(v.variant)}</th>
                <td>{humanize(v.action)}</td>
                <td>{v.amount === null ? "—" : money(v.amount, props.currency)}</td>
                <td>{v.price_id ? <code>{v.price_id}</code> : "—"}</td>
                <td>{v.source === "mapping" ? "pricing mapping" : v.source === "base" ? "base price" : "—"}</td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : null}
    </>
  );
}
