import type { OrderLedger, Outbox, PaymentLedger, WebhookInbox } from "../../application/fulfillment/ports.ts";
import type { Order, OrderItem, Payment } from "../../domain/orders/order.ts";
import type { Queryable } from "./database.ts";
import { UUID } from "./product-repository.ts";

/** The columns of a `Payment`, as every payment query selects them. */
export const PAYMENT_COLUMNS = [
  "id",
  "order_id",
  "gateway",
  "payment_id",
  "amount",
  "currency",
  "refunded_amount",
  "created_at",
];

export function createPostgresWebhookInbox(sql: Queryable): WebhookInbox {
  return {
    async insert(entry) {
      const [row] = await sql<{ id: string }[]>`
        insert into webhook_inbox ${sql(entry)} on conflict (gateway, event_id) do nothing returning id`;
      return row ? { inserted: true, id: row.id } : { inserted: false };
    },
    async find(id) {
      if (!UUID.test(id)) return undefined;
      const [row] = await sql<
        { id: string; gateway: string; event_id: string; payload: string; processed_at: Date | null }[]
      >`
        select id, gateway, event_id, payload, processed_at from webhook_inbox where id = ${id}`;
      return row;
    },
    async markProcessed(id) {
      await sql`update webhook_inbox set processed_at = now() where id = ${id}`;
    },
  };
}

export function createPostgresOrderLedger(sql: Queryable): OrderLedger {
  return {
    async find(orderId) {
      if (!UUID.test(orderId)) return undefined;
      const [order] = await sql<Order[]>`
        select id, customer_id, status, currency, subtotal, total, due_today, payment_gateway, gateway_environment,
               metadata, checkout_session_id, checkout_url, flagged_reason, created_at, updated_at
        from orders where id = ${orderId} for update`;
      if (!order) return undefined;
      const items = await sql<OrderItem[]>`
        select id, order_id, product_id, product_name, variant, payment_type, license_type, billing_interval, unit_price,
               quantity, amount, trial_days, due_today, delivery_model, fulfillment_driver, options
        from order_items where order_id = ${orderId} order by position`;
      return { order, items: [...items] };
    },
    async setStatus(orderId, from, to, reason) {
      const rows = await sql`
        update orders set status = ${to}, flagged_reason = coalesce(${reason ?? null}, flagged_reason), updated_at = now()
        where id = ${orderId} and status in ${sql(from as string[])} returning id`;
      return rows.length > 0;
    },
  };
}

export function createPostgresPaymentLedger(sql: Queryable): PaymentLedger {
  const columns = sql(PAYMENT_COLUMNS);
  return {
    async record(payment) {
      const [row] = await sql<Payment[]>`
        insert into payments ${sql(payment)} on conflict (gateway, payment_id) do nothing returning ${columns}`;
      return row;
    },
    async findByGatewayId(gateway, paymentId) {
      const [row] = await sql<Payment[]>`
        select ${columns} from payments where gateway = ${gateway} and payment_id = ${paymentId} for update`;
      return row;
    },
    async applyRefund(paymentId, refund) {
      if (refund.cumulative) {
        const [row] = await sql<Payment[]>`
          update payments set refunded_amount = least(amount, greatest(refunded_amount, ${refund.amount}))
          where id = ${paymentId} returning ${columns}`;
        if (!row) throw new Error(`payment ${paymentId} vanished`);
        return row;
      }
      const known = refund.refund_id
        ? await sql`select 1 from refunds where payment_id = ${paymentId} and gateway_refund_id = ${refund.refund_id}`
        : [];
      if (known.length === 0) {
        await sql`
          insert into refunds (payment_id, gateway_refund_id, amount, status)
          values (${paymentId}, ${refund.refund_id ?? `event:${crypto.randomUUID()}`}, ${refund.amount}, 'succeeded')`;
        await sql`update payments set refunded_amount = least(amount, refunded_amount + ${refund.amount}) where id = ${paymentId}`;
      }
      const [row] = await sql<Payment[]>`select ${columns} from payments where id = ${paymentId}`;
      if (!row) throw new Error(`payment ${paymentId} vanished`);
      return row;
    },
  };
}

export function createPostgresOutbox(sql: Queryable): Outbox {
  return {
    async add(kind, payload) {
      const [row] = await sql<{ id: string }[]>`
        insert into outbox (kind, payload) values (${kind}, ${sql.json(payload as never)}) returning id`;
      if (!row) throw new Error("outbox insert returned no row");
      return row.id;
    },
  };
}
