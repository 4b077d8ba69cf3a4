import type { Schemas } from "../../shared/api.ts";
import { formatMoney, formatTime, humanize } from "../../shared/format.ts";
import { TableBox } from "../../shared/ui.tsx";
import { DRIVER_NAMES } from "../choices.ts";

type Order = Schemas["AdminOrderDetails"];

/** What is left of a payment to give back: neither refunded nor taken back by a chargeback. */
export const refundableOf = (payment: Schemas["Payment"]) =>
  payment.amount - payment.refunded_amount - payment.charged_back_amount;

/** A subscription's plan now, when a change moved it from the variant bought (or one waits for the period end). */
function PlanNow(props: { order: Order; itemId: string; bought: string }) {
  const plan = props.order.subscriptions.find((each) => each.order_item_id === props.itemId);
  if (!plan) return null;
  return (
    <>
      {plan.billing_interval !== props.bought ? <p class="note">now {plan.billing_interval}</p> : null}
      {plan.pending_interval ? (
        <p class="note">
          {plan.pending_interval} from {formatTime(plan.pending_at)}
        </p>
      ) : null}
    </>
  );
}

export function ItemTable(props: { order: Order }) {
  const { order } = props;
  return (
    <TableBox label="Items" columns={["Product", "Variant", "Quantity", "Unit price", "Amount", "Delivered by"]}>
      <tbody>
        {order.items.map((item) => (
          <tr key={item.id}>
            <td>{item.product_name}</td>
            <td>
              {item.variant}
              {item.trial_days ? ` (${item.trial_days}-day trial)` : ""}
              <PlanNow order={order} itemId={item.id} bought={item.variant} />
            </td>
            <td>{item.quantity}</td>
            <td>{formatMoney(item.unit_price, order.currency)}</td>
            <td>{formatMoney(item.amount, order.currency)}</td>
            <td>{DRIVER_NAMES[item.fulfillment_driver]}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}

export function PaymentTable(props: { order: Order }) {
  const { order } = props;
  if (order.payments.length === 0) return <p>No payments yet.</p>;
  return (
    <TableBox
      label="Payments"
      columns={["Gateway's payment", "Kind", "Amount", "Discount", "Tax", "Refunded", "Charged back", "Received"]}
    >
      <tbody>
        {order.payments.map((payment) => (
          <tr key={payment.id}>
            <td>
              <code>{payment.payment_id}</code>
            </td>
            <td>{payment.kind}</td>
            <td>{formatMoney(payment.amount, payment.currency)}</td>
            <td>{formatMoney(payment.discount, payment.currency)}</td>
            <td>{formatMoney(payment.tax, payment.currency)}</td>
            <td>{formatMoney(payment.refunded_amount, payment.currency)}</td>
            <td>{formatMoney(payment.charged_back_amount, payment.currency)}</td>
            <td>{formatTime(payment.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}

export function RefundTable(props: { order: Order }) {
  const { order } = props;
  if (order.refunds.length === 0) return <p>No refunds.</p>;
  const gatewayIdOf = (paymentId: string) =>
    order.payments.find((payment) => payment.id === paymentId)?.payment_id ?? paymentId;
  return (
    <TableBox label="Refunds" columns={["Gateway's refund", "Of payment", "Amount", "Status", "Made"]}>
      <tbody>
        {order.refunds.map((refund) => (
          <tr key={refund.id}>
            <td>
              <code>{refund.gateway_refund_id}</code>
            </td>
            <td>
              <code>{gatewayIdOf(refund.payment_id)}</code>
            </td>
            <td>{formatMoney(refund.amount, order.currency)}</td>
            <td>{refund.status}</td>
            <td>{formatTime(refund.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}

export function DisputeTable(props: { order: Order }) {
  const { order } = props;
  if (order.disputes.length === 0) return <p>No disputes.</p>;
  return (
    <TableBox label="Disputes" columns={["Gateway's dispute", "Amount", "Status", "Opened"]}>
      <tbody>
        {order.disputes.map((dispute) => (
          <tr key={dispute.id}>
            <td>
              <code>{dispute.gateway_dispute_id}</code>
            </td>
            <td>{formatMoney(dispute.amount, dispute.currency)}</td>
            <td>{humanize(dispute.status)}</td>
            <td>{formatTime(dispute.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
