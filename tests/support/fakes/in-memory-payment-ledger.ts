import type { RefundRecord } from "../../../application/checkout/ports.ts";
import type { PaymentLedger, RefundReservation } from "../../../application/payments/ledger-ports.ts";
import type { Dispute, Payment } from "../../../domain/payments/payment.ts";

/**
 * Payments, refunds and disputes in memory with the real ledger's rules: one payment per
 * `(gateway, payment_id)`, a single refund recorded once per refund id, the refunded amount only
 * ever raised to the largest of a running total, the refunds recorded, and what was refunded before
 * an admin's refund plus it; never more refunded or charged back than was paid, a settled dispute
 * final. `add` seeds a payment; `snapshot` lets a fake unit of work roll back.
 */
export function createInMemoryPaymentLedger() {
  let payments = new Map<string, Payment>();
  let refunds: RefundRecord[] = [];
  let disputes = new Map<string, Dispute>();
  /** Refunds reserved and not yet settled or released; `claimed_until` in epoch ms. */
  /** The request key each refund settled from a reservation was made under. */
  let settledKeys = new Map<string, { key: string; hash: string }>();
  let reservations: (Omit<RefundReservation, "payment" | "outcome_unknown"> & {
    payment_id: string;
    outcome_unknown: boolean;
    request_key: string | null;
    claimed_until: number | null;
  })[] = [];

  function add(overrides: Partial<Payment> & Pick<Payment, "order_id">): Payment {
    const payment: Payment = {
      id: crypto.randomUUID(),
      gateway: "gateway_b",
      payment_id: `pi_${crypto.randomUUID().slice(0, 8)}`,
      kind: "initial",
      amount: 4900,
      tax: 0,
      discount: 0,
      currency: "EUR",
      refunded_amount: 0,
      charged_back_amount: 0,
      invoice_id: null,
      charge_id: null,
      payment_intent_id: null,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, payments.size)),
      ...overrides,
    };
    payments.set(payment.id, payment);
    return payment;
  }

  const toReservation = (found: (typeof reservations)[number]): RefundReservation => {
    const { id, amount, refunded_before, outcome_unknown, request_hash } = found;
    return { id, payment: get(found.payment_id), amount, refunded_before, outcome_unknown, request_hash };
  };
  const get = (id: string): Payment => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`no payment ${id}`);
    return payment;
  };
  const change = (id: string, patch: Partial<Payment>) => {
    payments.set(id, { ...get(id), ...patch });
    return get(id);
  };

  const ledger: PaymentLedger = {
    async record(payment) {
      const taken = [...payments.values()].some(
        (p) => p.gateway === payment.gateway && p.payment_id === payment.payment_id,
      );
      return taken ? undefined : add({ ...payment, discount: payment.discount ?? 0 });
    },
    async find(gateway, pointer) {
      const ids = [pointer.payment_id, pointer.payment_intent_id].filter((id) => !!id);
      return [...payments.values()]
        .filter((p) => p.gateway === gateway)
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
        .find(
          (p) =>
            ids.includes(p.payment_id) ||
            (p.payment_intent_id !== null && ids.includes(p.payment_intent_id)) ||
            (pointer.charge_id != null && p.charge_id === pointer.charge_id) ||
            (pointer.invoice_id != null && p.invoice_id === pointer.invoice_id),
        );
    },
    forOrder: async (orderId) =>
      [...payments.values()]
        .filter((p) => p.order_id === orderId)
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime()),
    async link(paymentId, references) {
      const payment = get(paymentId);
      change(paymentId, {
        invoice_id: payment.invoice_id ?? references.invoice_id ?? null,
        charge_id: payment.charge_id ?? references.charge_id ?? null,
        payment_intent_id: payment.payment_intent_id ?? references.payment_intent_id ?? null,
      });
    },
    async applyRefund(paymentId, refund) {
      const payment = get(paymentId);
      if (refund.reservation_id !== undefined && refund.refund_id !== null) {
        const reserved = reservations.find((r) => r.id === refund.reservation_id);
        reservations = reservations.filter((r) => r.id !== refund.reservation_id);
        const known = refunds.find((r) => r.payment_id === paymentId && r.gateway_refund_id === refund.refund_id);
        if (reserved?.request_key) {
          settledKeys.set(known?.id ?? reserved.id, { key: reserved.request_key, hash: reserved.request_hash ?? "" });
        }
        if (reserved && !known) {
          refunds = [
            ...refunds,
            {
              id: reserved.id,
              payment_id: paymentId,
              gateway_refund_id: refund.refund_id,
              amount: reserved.amount,
              status: "succeeded",
              created_at: new Date(),
            },
          ];
        }
      } else if (!refund.cumulative) {
        const refundId = refund.refund_id ?? `event:${crypto.randomUUID()}`;
        if (refunds.some((r) => r.payment_id === paymentId && r.gateway_refund_id === refundId)) return payment;
        refunds = [
          ...refunds,
          {
            id: crypto.randomUUID(),
            payment_id: paymentId,
            gateway_refund_id: refundId,
            amount: refund.amount,
            status: "succeeded",
            created_at: new Date(),
          },
        ];
      }
      const known = refund.cumulative ? refund.amount : refund.amount + (refund.refunded_before ?? 0);
      const recorded = refunds
        .filter((r) => r.payment_id === paymentId && r.status === "succeeded")
        .reduce((sum, r) => sum + r.amount, 0);
      return change(paymentId, {
        refunded_amount: Math.min(
          payment.amount - payment.charged_back_amount,
          Math.max(payment.refunded_amount, known, recorded),
        ),
      });
    },
    reservedOn: async (paymentId) =>
      reservations.filter((r) => r.payment_id === paymentId).reduce((sum, r) => sum + r.amount, 0),
    async reserveRefund(payment, amount, request, claimSeconds) {
      const reservation = {
        id: crypto.randomUUID(),
        payment_id: payment.id,
        amount,
        refunded_before: payment.refunded_amount,
        outcome_unknown: false,
        request_hash: request?.hash ?? null,
        request_key: request?.key ?? null,
        claimed_until: Date.now() + claimSeconds * 1000,
      };
      reservations = [...reservations, reservation];
      const { id, refunded_before, outcome_unknown, request_hash } = reservation;
      return { id, payment, amount, refunded_before, outcome_unknown, request_hash };
    },
    async reservationFor(orderId, requestKey) {
      const found = reservations.find((r) => r.request_key === requestKey && get(r.payment_id).order_id === orderId);
      if (found) return { reservation: toReservation(found), open: true };
      const made = refunds.find(
        (r) => settledKeys.get(r.id)?.key === requestKey && get(r.payment_id).order_id === orderId,
      );
      if (!made) return undefined;
      const reservation = {
        id: made.id,
        payment: get(made.payment_id),
        amount: made.amount,
        refunded_before: 0,
        outcome_unknown: false,
        request_hash: settledKeys.get(made.id)?.hash ?? null,
      };
      return { reservation, open: false };
    },
    async claimReservation(reservationId, claimSeconds) {
      const found = reservations.find((r) => r.id === reservationId);
      if (!found) return undefined;
      const claimed = found.claimed_until === null || found.claimed_until < Date.now();
      if (claimed) found.claimed_until = Date.now() + claimSeconds * 1000;
      return { reservation: toReservation(found), claimed };
    },
    async unclaimReservation(reservationId) {
      const found = reservations.find((r) => r.id === reservationId);
      if (found) found.claimed_until = null;
    },
    async holdUnknownOutcome(reservationId, holdSeconds) {
      const found = reservations.find((r) => r.id === reservationId);
      if (!found) return;
      found.outcome_unknown = true;
      found.claimed_until = Date.now() + holdSeconds * 1000;
    },
    async releaseReservation(reservationId) {
      reservations = reservations.filter((r) => r.id !== reservationId);
    },
    async settleDispute(payment, dispute) {
      const before = [...disputes.values()].find(
        (d) => d.gateway === payment.gateway && d.gateway_dispute_id === dispute.gateway_dispute_id,
      );
      if (before && (before.status === dispute.status || before.status !== "open")) {
        return { dispute: before, changed: false, payment: get(payment.id) };
      }
      const now = new Date();
      const settled: Dispute = before
        ? { ...before, status: dispute.status, updated_at: now }
        : {
            id: crypto.randomUUID(),
            payment_id: payment.id,
            gateway: payment.gateway,
            ...dispute,
            created_at: now,
            updated_at: now,
          };
      disputes.set(settled.id, settled);
      if (dispute.status === "lost") {
        const current = get(payment.id);
        change(payment.id, {
          charged_back_amount: Math.min(
            current.amount - current.refunded_amount,
            current.charged_back_amount + dispute.amount,
          ),
        });
      }
      return { dispute: settled, changed: true, payment: get(payment.id) };
    },
  };

  return {
    ...ledger,
    add,
    get,
    /** Every refund counted, in order. */
    refunds: () => [...refunds],
    disputes: () => [...disputes.values()],
    /** Refunds reserved and not yet settled or released. */
    reservations: () =>
      reservations.map(({ id, payment_id, amount, outcome_unknown }) => ({ id, payment_id, amount, outcome_unknown })),
    /** Time passes beyond every claim: any reservation can be claimed again. */
    expireClaims: () => {
      for (const reservation of reservations) reservation.claimed_until = null;
    },
    snapshot() {
      const saved = {
        payments: new Map(payments),
        refunds: [...refunds],
        disputes: new Map(disputes),
        reservations: reservations.map((r) => ({ ...r })),
        settledKeys: new Map(settledKeys),
      };
      return () => {
        payments = saved.payments;
        refunds = saved.refunds;
        disputes = saved.disputes;
        reservations = saved.reservations;
        settledKeys = saved.settledKeys;
      };
    },
  };
}

export type InMemoryPaymentLedger = ReturnType<typeof createInMemoryPaymentLedger>;
