import type { PaymentLedger, RefundReservation } from "../../application/payments/ledger-ports.ts";
import type { Payment } from "../../domain/payments/payment.ts";
import type { Queryable } from "./database.ts";

type ReservationMethods = Pick<
  PaymentLedger,
  | "reservedOn"
  | "reserveRefund"
  | "reservationFor"
  | "claimReservation"
  | "unclaimReservation"
  | "holdUnknownOutcome"
  | "releaseReservation"
>;

interface ReservationRow {
  readonly id: string;
  readonly payment_id: string;
  readonly amount: number;
  readonly refunded_before: number | null;
  readonly outcome_unknown: boolean;
  readonly request_hash: string | null;
  readonly claimed: boolean;
}

/** Refunds reserved before the gateway is asked: `refunds` rows in status `reserved` (migration 0022). */
export function createPostgresRefundReservations(
  sql: Queryable,
  reload: (paymentId: string) => Promise<Payment>,
): ReservationMethods {
  const toReservation = async (row: ReservationRow): Promise<RefundReservation> => ({
    id: row.id,
    payment: await reload(row.payment_id),
    amount: row.amount,
    refunded_before: row.refunded_before ?? 0,
    outcome_unknown: row.outcome_unknown,
    request_hash: row.request_hash,
  });

  return {
    async reservedOn(paymentId) {
      const [row] = await sql<{ reserved: number }[]>`
        select coalesce(sum(amount), 0)::bigint as reserved from refunds
        where payment_id = ${paymentId} and status = 'reserved'`;
      return row?.reserved ?? 0;
    },

    async reserveRefund(payment, amount, request, claimSeconds) {
      const [row] = await sql<{ id: string }[]>`
        insert into refunds (payment_id, amount, status, refunded_before, request_key, request_hash, claimed_until)
        values (${payment.id}, ${amount}, 'reserved', ${payment.refunded_amount}, ${request?.key ?? null},
                ${request?.hash ?? null}, now() + make_interval(secs => ${claimSeconds}))
        returning id`;
      if (!row) throw new Error("the reservation insert returned no row");
      const made = { id: row.id, payment, amount, refunded_before: payment.refunded_amount };
      return { ...made, outcome_unknown: false, request_hash: request?.hash ?? null };
    },

    async reservationFor(orderId, requestKey) {
      const [row] = await sql<(ReservationRow & { open: boolean })[]>`
        select r.id, r.payment_id, r.amount, r.refunded_before, r.outcome_unknown, r.request_hash,
               false as claimed, r.status = 'reserved' as open
        from refunds r join payments p on p.id = r.payment_id
        where p.order_id = ${orderId} and r.request_key = ${requestKey} and r.status <> 'failed'
        order by r.created_at desc limit 1`;
      return row ? { reservation: await toReservation(row), open: row.open } : undefined;
    },

    async claimReservation(reservationId, claimSeconds) {
      // One statement decides: two askers never both see the reservation free.
      const [row] = await sql<ReservationRow[]>`
        with target as (select id from refunds where id = ${reservationId} and status = 'reserved' for update),
        taken as (
          update refunds set claimed_until = now() + make_interval(secs => ${claimSeconds})
          where id in (select id from target) and (claimed_until is null or claimed_until < now())
          returning id)
        select r.id, r.payment_id, r.amount, r.refunded_before, r.outcome_unknown, r.request_hash,
               exists (select 1 from taken) as claimed
        from refunds r where r.id in (select id from target)`;
      return row ? { reservation: await toReservation(row), claimed: row.claimed } : undefined;
    },

    async unclaimReservation(reservationId) {
      await sql`update refunds set claimed_until = null where id = ${reservationId} and status = 'reserved'`;
    },

    async holdUnknownOutcome(reservationId, holdSeconds) {
      await sql`
        update refunds set outcome_unknown = true, claimed_until = now() + make_interval(secs => ${holdSeconds})
        where id = ${reservationId} and status = 'reserved'`;
    },

    async releaseReservation(reservationId) {
      await sql`delete from refunds where id = ${reservationId} and status = 'reserved'`;
    },
  };
}
