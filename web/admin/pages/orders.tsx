import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Checkbox, Select } from "../../shared/fields.tsx";
import { formatMoney, formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { choicesOf, GATEWAY_NAMES, ORDER_STATUS_NAMES, shortId } from "../choices.ts";
import { api } from "../context.ts";
import { saveCsv } from "../operations/csv-download.ts";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type Status = Schemas["OrderStatus"];
type Gateway = Schemas["PaymentGateway"];

const STATUS_CHOICES = choicesOf(ORDER_STATUS_NAMES, "Any status");
const GATEWAY_CHOICES = choicesOf(GATEWAY_NAMES, "Any gateway");

export function Orders() {
  const [attention, setAttention] = useState(false);
  const [status, setStatus] = useState<Status | "">("");
  const [gateway, setGateway] = useState<Gateway | "">("");
  const pager = usePager(`${attention}/${status}/${gateway}`);
  const filter = {
    needs_attention: attention ? ("true" as const) : undefined,
    status: status || undefined,
    payment_gateway: gateway || undefined,
  };
  const { result, reload } = useLoad(
    () => unwrap(api.GET("/api/admin/orders", { params: { query: { ...filter, cursor: pager.cursor } } })),
    [attention, status, gateway, pager.cursor],
  );
  return (
    <>
      <h1>Orders</h1>
      <Toolbar onRefresh={reload}>
        <Checkbox label="Needs attention" checked={attention} onChange={setAttention} />
        <Select label="Status" value={status} options={STATUS_CHOICES} onChange={(v) => setStatus(v as Status)} />
        <Select label="Gateway" value={gateway} options={GATEWAY_CHOICES} onChange={(v) => setGateway(v as Gateway)} />
        <ActionButton
          label="Download CSV"
          run={() => saveCsv(api.GET("/api/admin/exports/orders.csv", { params: { query: filter }, parseAs: "blob" }))}
          describe={(name) => `Saved ${name}.`}
        />
      </Toolbar>
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No orders match these filters.</p>
          ) : (
            <>
              <OrderTable orders={found.items} />
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

function OrderTable(props: { orders: readonly Schemas["AdminOrder"][] }) {
  return (
    <TableBox label="Orders" columns={["Order", "Placed", "Status", "Total", "Gateway", "Attention"]}>
      <tbody>
        {props.orders.map((order) => (
          <tr key={order.id}>
            <td>
              <a href={href(`/orders/${encodeURIComponent(order.id)}`)}>Order {shortId(order.id)}</a>
            </td>
            <td>{formatTime(order.created_at)}</td>
            <td>{ORDER_STATUS_NAMES[order.status]}</td>
            <td>{formatMoney(order.total, order.currency)}</td>
            <td>
              {GATEWAY_NAMES[order.payment_gateway]} ({order.gateway_environment})
            </td>
            <td>
              {order.needs_attention ? (
                <strong class="error">
                  Needs attention{order.attention_reason ? `: ${order.attention_reason}` : ""}
                </strong>
              ) : (
                "—"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
