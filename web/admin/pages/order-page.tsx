import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatMoney, formatTime, humanize } from "../../shared/format.ts";
import { href } from "../../shared/router.ts";
import { ActionButton, Loaded } from "../../shared/ui.tsx";
import { GATEWAY_NAMES, ORDER_STATUS_NAMES, shortId } from "../choices.ts";
import { api } from "../context.ts";
import { Notice, useChangingRecord } from "../operations/notice.tsx";
import { DisputeTable, ItemTable, PaymentTable, RefundTable } from "../operations/order-ledger.tsx";
import { RefundForm } from "../operations/refund-form.tsx";

type Order = Schemas["AdminOrderDetails"];

export function OrderPage(props: { id: string }) {
  const { result, notice, changed } = useChangingRecord(
    () => unwrap(api.GET("/api/admin/orders/{id}", { params: { path: { id: props.id } } })),
    [props.id],
  );
  return (
    <>
      <p>
        <a href={href("/orders")}>All orders</a>
      </p>
      <h1>Order {shortId(props.id)}</h1>
      <Notice text={notice} />
      <Loaded result={result}>
        {(order) => (
          <>
            <OrderSummary order={order} />
            {order.needs_attention || order.status === "flagged" ? (
              <Attention order={order} onApproved={(after) => changed(approvedText(after))} />
            ) : null}
            <h2>Items</h2>
            <ItemTable order={order} />
            <h2>Payments</h2>
            <PaymentTable order={order} />
            <h2>Refunds</h2>
            <RefundTable order={order} />
            <RefundForm
              order={order}
              onRefunded={(after) => changed(`Refund made; the order is now ${humanize(after.status)}.`)}
            />
            {order.disputes.length > 0 ? (
              <>
                <h2>Disputes</h2>
                <DisputeTable order={order} />
              </>
            ) : null}
          </>
        )}
      </Loaded>
    </>
  );
}

const approvedText = (after: Order) =>
  `Approved; the order is now ${humanize(after.status)}${after.needs_attention ? " and still needs attention" : ""}.`;

function OrderSummary(props: { order: Order }) {
  const { order } = props;
  return (
    <dl>
      <dt>Order id</dt>
      <dd>
        <code>{order.id}</code>
      </dd>
      <dt>Status</dt>
      <dd id="order-status">{ORDER_STATUS_NAMES[order.status]}</dd>
      <dt>Total</dt>
      <dd>
        {formatMoney(order.total, order.currency)} (tax {order.tax_behavior === "inclusive" ? "included" : "on top"})
      </dd>
      {order.discount_code ? (
        <>
          <dt>Discount</dt>
          <dd id="order-discount">
            <code>{order.discount_code}</code>: {formatMoney(order.discount_total, order.currency)} off{" "}
            {formatMoney(order.subtotal, order.currency)}
            {order.discount_payments === null
              ? ", on every payment"
              : order.discount_payments > 1
                ? `, on the first ${order.discount_payments} payments`
                : ""}
          </dd>
        </>
      ) : null}
      <dt>Gateway</dt>
      <dd>
        {GATEWAY_NAMES[order.payment_gateway]}, {order.gateway_environment}
      </dd>
      <dt>Customer id</dt>
      <dd>
        <code>{order.customer_id}</code>
      </dd>
      <dt>Placed</dt>
      <dd>{formatTime(order.created_at)}</dd>
      {order.flagged_reason ? (
        <>
          <dt>Checkout problem</dt>
          <dd>{order.flagged_reason}</dd>
        </>
      ) : null}
    </dl>
  );
}

function Attention(props: { order: Order; onApproved: (after: Order) => void }) {
  const { order } = props;
  return (
    <section aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs attention</h2>
      <p class="error">{order.attention_reason ?? "The payment does not match the order."}</p>
      <p>
        {order.status === "flagged"
          ? "Approving accepts the payment as it is, and the order is delivered."
          : "Approving says a person has looked at it; the flag is cleared."}
      </p>
      <ActionButton
        label="Approve"
        confirm={order.status === "flagged" ? "Approve this order? It is delivered at once." : undefined}
        run={() => unwrap(api.POST("/api/admin/orders/{id}/approve", { params: { path: { id: order.id } } }))}
        describe={() => "Approved."}
        onDone={props.onApproved}
      />
    </section>
  );
}
