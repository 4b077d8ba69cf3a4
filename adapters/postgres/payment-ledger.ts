import type { PaymentLedger } from "../../application/payments/ledger-ports.ts";
import type { Dispute, Payment } from "../../domain/payments/payment.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { createPostgresRefundReservations } from "./refund-reservations.ts";

/** The columns of a `Payment`, as every payment query selects them. */
export const PAYMENT_COLUMNS = [
  "id",
  "order_id",
  "gateway",
  "payment_id",
  "kind",
  "amount",
  "tax",
  "discount",
  "currency",
  "refunded_amount",
  "charged_back_amount",
  "invoice_id",
  "charge_id",
  "payment_intent_id",
  "created_at",
];

export const DISPUTE_COLUMNS = [
  "id",
  "payment_id",
  "gateway",
  "gateway_dispute_id",
  "amount",
  "currency",
  "status",
  "created_at",
  "updated_at",
];

export function createPostgresPaymentLedger(sql: Queryable): PaymentLedger {
  const columns = columnList(sql, PAYMENT_COLUMNS);
  const reload = async (paymentId: string) => {
    const [row] = await sql<Payment[]>`select ${columns} from payments where id = ${paymentId}`;
    if (!row) throw new Error(`payment ${paymentId} vanished`);
    return row;
  };
  return {
    ...createPostgresRefundReservations(sql, reload),

    async record(payment) {
      const [row] = await sql<Payment[]>`
        insert into payments ${sql(payment)} on conflict (gateway, payment_id) do nothing returning ${columns}`;
      return row;
    },

    async find(gateway, pointer) {
      const ids = [pointer.payment_id, pointer.payment_intent_id].filter((id): id is string => !!id);
      const [row] = await sql<Payment[]>`
        select ${columns} from payments
        where gateway = ${gateway} and (
          payment_id = any(${ids}::text[]) or payment_intent_id = any(${ids}::text[])
          or charge_id = ${pointer.charge_id ?? null} or invoice_id = ${pointer.invoice_id ?? null})
        order by created_at limit 1 for update`;
      return row;
    },

    async forOrder(orderId) {
      return [
        ...(await sql<Payment[]>`select ${columns} from payments where order_id = ${orderId} order by created_at, id`),
      ];
    },

    async link(paymentId, references) {
      await sql`
        update payments set
          invoice_id = coalesce(invoice_id, ${references.invoice_id ?? null}),
          charge_id = coalesce(charge_id, ${references.charge_id ?? null}),
          payment_intent_id = coalesce(payment_intent_id, ${references.payment_intent_id ?? null})
        where id = ${paymentId}`;
    },

    async applyRefund(paymentId, refund) {
      // The payment row first, on every path, so concurrent reports of one refund queue up behind it.
      await sql`select id from payments where id = ${paymentId} for update`;
      if (refund.reservation_id !== undefined && refund.refund_id !== null) {
        // The reservation becomes the refund, unless the gateway's event about it was recorded first:
        // then that row is the refund and the reservation goes.
        const settled = await sql`
          update refunds set status = 'succeeded', gateway_refund_id = ${refund.refund_id}, claimed_until = null
          where id = ${refund.reservation_id} and status = 'reserved' and not exists (
            select 1 from refunds where payment_id = ${paymentId} and gateway_refund_id = ${refund.refund_id})
          returning id`;
        if (settled.length === 0) {
          // The refund keeps the request key: a retry under it finds the refund made.
          await sql`
            update refunds set request_key = coalesce(refunds.request_key, reserved.request_key)
            from refunds reserved
            where reserved.id = ${refund.reservation_id} and reserved.status = 'reserved'
              and refunds.payment_id = ${paymentId} and refunds.gateway_refund_id = ${refund.refund_id}`;
          await sql`delete from refunds where id = ${refund.reservation_id} and status = 'reserved'`;
        }
      } else if (!refund.cumulative) {
        // The unique (payment, refund id) decides, not a prior read: the admin's record of a refund and
        // the gateway's event about it may be applied at the same moment.
        const inserted = await sql`
          insert into refunds (payment_id, gateway_refund_id, amount, status)
          values (${paymentId}, ${refund.refund_id ?? `event:${crypto.randomUUID()}`}, ${refund.amount}, 'succeeded')
          on conflict (payment_id, gateway_refund_id) do nothing returning id`;
        if (inserted.length === 0) return reload(paymentId);
      }
      // Three totals, none counting a refund twice: the gateway's running total, the refunds recorded
      // by id, and (an admin's refund) what was refunded before it plus it. Adding instead would count
      // twice a refund that a running total already holds and that is recorded by id only now.
      const known = refund.cumulative ? refund.amount : refund.amount + (refund.refunded_before ?? 0);
      // What a lost dispute took back cannot be refunded as well: the ledger never goes below zero.
      await sql`
        update payments set refunded_amount = least(amount - charged_back_amount, greatest(
          refunded_amount,
          ${known}::bigint,
          (select coalesce(sum(amount), 0) from refunds where payment_id = ${paymentId} and status = 'succeeded')))
        where id = ${paymentId}`;
      return reload(paymentId);
    },

    async settleDispute(payment, dispute) {
      const [before] = await sql<Dispute[]>`
        select ${columnList(sql, DISPUTE_COLUMNS)} from disputes
        where gateway = ${payment.gateway} and gateway_dispute_id = ${dispute.gateway_dispute_id} for update`;
      if (before && (before.status === dispute.status || before.status !== "open")) {
        return { dispute: before, changed: false, payment: await reload(payment.id) };
      }
      const [row] = await sql<Dispute[]>`
        insert into disputes (payment_id, gateway, gateway_dispute_id, amount, currency, status)
        values (${payment.id}, ${payment.gateway}, ${dispute.gateway_dispute_id}, ${dispute.amount},
                ${dispute.currency}, ${dispute.status})
        on conflict (gateway, gateway_dispute_id) do update set status = excluded.status, updated_at = now()
        returning ${columnList(sql, DISPUTE_COLUMNS)}`;
      if (!row) throw new Error("dispute upsert returned no row");
      if (dispute.status === "lost") {
        await sql`
          update payments set charged_back_amount = least(amount - refunded_amount, charged_back_amount + ${dispute.amount})
          where id = ${payment.id}`;
      }
      return { dispute: row, changed: true, payment: await reload(payment.id) };
    },
  };
}
