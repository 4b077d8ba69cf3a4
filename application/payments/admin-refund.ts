import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import {
  NothingToRefund,
  PaymentNotOfOrder,
  RefundExceedsPayment,
  RefundFailed,
  RefundInProgress,
  RefundOutcomeUnknown,
} from "../../domain/payments/errors.ts";
import { retainedAmount } from "../../domain/payments/payment.ts";
import { DomainError } from "../../domain/shared/domain-error.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import {
  CredentialsNotFound,
  IdempotencyKeyReused,
  UpstreamError,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "../shared/errors.ts";
import { requestHash } from "../shared/idempotent-request.ts";
import type { PayloadOf } from "../shared/jobs.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import type { OrderFulfillment } from "./fulfillment-ports.ts";
import { settleRefundJob } from "./jobs.ts";
import type { RefundRequestKey, RefundReservation } from "./ledger-ports.ts";
import type { PaymentGateway } from "./ports.ts";
import { REFUND_CLAIM_SECONDS, SETTLE_REFUND_AFTER_MS, UNKNOWN_OUTCOME_HOLD_SECONDS } from "./refund-timing.ts";
import { recordRefund } from "./refunds-and-disputes.ts";

export interface AdminRefundDeps {
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly log: Log;
  readonly fulfillment: OrderFulfillment;
}

export interface RefundRequest {
  readonly payment_id?: string;
  readonly amount?: number;
}

type SettleRefund = PayloadOf<typeof settleRefundJob>;

/** What asking the gateway about a reservation came to; anything not known for sure throws instead. */
type Asked = { readonly kind: "settled" } | { readonly kind: "refused"; readonly error: Error };

/**
 * A refund is reserved before the gateway is asked (docs/decisions/refund-reservations.md):
 * under the payment row's lock, what is left is the payment less what was
 * refunded, charged back and reserved by refunds still in flight, so concurrent refunds never
 * reserve more than was paid. The reservation's id names the refund at the gateway; its answer
 * settles or releases it; an answer never heard leaves it held for a retry or the settle job.
 */
export function makeAdminRefund(deps: AdminRefundDeps) {
  /** The reservation to ask the gateway about, or null when the refund under `requestKey` is already made. */
  async function reserve(
    orderId: string,
    request: RefundRequest,
    actorId: string,
    requestKey: RefundRequestKey | null,
  ) {
    return deps.uow.run(async (scope): Promise<RefundReservation | null> => {
      if (requestKey !== null) {
        const earlier = await scope.payments.reservationFor(orderId, requestKey.key);
        const madeFor = earlier?.reservation.request_hash ?? null;
        if (madeFor !== null && madeFor !== requestKey.hash) throw new IdempotencyKeyReused();
        // Settled meanwhile (by the settle job, after this request's first attempt lost its answer).
        if (earlier && !earlier.open) return null;
        const taken = earlier && (await scope.payments.claimReservation(earlier.reservation.id, REFUND_CLAIM_SECONDS));
        if (taken && !taken.claimed) throw new RefundInProgress();
        if (taken) return taken.reservation;
        // Settled or released between the two reads: the next retry sees which.
        if (earlier) throw new RefundInProgress();
      }
      const payments = await scope.payments.forOrder(orderId);
      const candidates = request.payment_id
        ? payments.filter((payment) => payment.payment_id === request.payment_id)
        : [...payments].reverse();
      if (request.payment_id && candidates.length === 0) throw new PaymentNotOfOrder();
      for (const candidate of candidates) {
        const locked = await scope.payments.find(candidate.gateway, { payment_id: candidate.payment_id });
        if (!locked) continue;
        const left = retainedAmount(locked) - (await scope.payments.reservedOn(locked.id));
        if (left <= 0) continue;
        const amount = request.amount ?? left;
        if (!Number.isInteger(amount) || amount < 1 || amount > left) throw new RefundExceedsPayment(left);
        const reservation = await scope.payments.reserveRefund(locked, amount, requestKey, REFUND_CLAIM_SECONDS);
        await scope.jobs.enqueue(
          settleRefundJob(
            { reservation_id: reservation.id, order_id: orderId, actor_id: actorId },
            { runAt: new Date(deps.clock().getTime() + SETTLE_REFUND_AFTER_MS) },
          ),
        );
        return reservation;
      }
      throw new NothingToRefund();
    });
  }

  /** A refusal that leaves no doubt nothing was refunded (a 409 may be the same refund still in flight). */
  const refusedForGood = (error: unknown): error is UpstreamRejected =>
    error instanceof UpstreamRejected && error.status !== 409;

  /** A failure known to have sent the gateway nothing it could refund by: the next asker may go at once. */
  const sentNothing = (error: unknown): boolean =>
    error instanceof UpstreamRateLimited ||
    error instanceof UpstreamUrlNotAllowed ||
    error instanceof CredentialsNotFound ||
    (error instanceof UpstreamUnreachable && error.sentNothing) ||
    (error instanceof DomainError && !(error instanceof UpstreamError));

  async function ask(reservation: RefundReservation, orderId: string, actorId: string): Promise<Asked> {
    const { payment } = reservation;
    let result: Awaited<ReturnType<PaymentGateway["refund"]>>;
    try {
      result = await deps.gateways[payment.gateway].refund(
        { payment_id: payment.payment_id, order_id: orderId, currency: payment.currency },
        reservation.amount === payment.amount ? null : reservation.amount,
        reservation.id,
        { lookUpFirst: reservation.outcome_unknown },
      );
    } catch (error) {
      if (refusedForGood(error) && !reservation.outcome_unknown) {
        await release(reservation, orderId, error.message);
        return { kind: "refused", error };
      }
      if (sentNothing(error)) {
        await deps.uow.run((scope) => scope.payments.unclaimReservation(reservation.id));
        throw error;
      }
      // This attempt (or an earlier one, before a refusal now) may have refunded: the reservation
      // stays held until the gateway can show what it did; then a retry or the settle job asks again.
      await deps.uow.run((scope) => scope.payments.holdUnknownOutcome(reservation.id, UNKNOWN_OUTCOME_HOLD_SECONDS));
      if (!refusedForGood(error)) throw error;
      deps.log.warn(
        { order_id: orderId, payment_id: payment.payment_id, reservation_id: reservation.id, reason: error.message },
        "refund refused by the gateway after an attempt whose outcome is unknown; its reservation is kept",
      );
      throw new RefundOutcomeUnknown();
    }
    if (result.status === "failed") {
      await release(reservation, orderId, "the gateway answered failed");
      return { kind: "refused", error: new RefundFailed() };
    }
    await deps.uow.run(async (scope) => {
      const locked = (await scope.payments.find(payment.gateway, { payment_id: payment.payment_id })) ?? payment;
      await recordRefund(
        scope,
        locked,
        {
          refund_id: result.refund_id,
          amount: reservation.amount,
          cumulative: false,
          refunded_before: reservation.refunded_before,
          reservation_id: reservation.id,
        },
        deps,
      );
      await scope.audit.record({
        actor_id: actorId,
        action: "order.refund",
        target_type: "order",
        target_id: orderId,
        summary: {
          payment_id: payment.payment_id,
          gateway: payment.gateway,
          refund_id: result.refund_id,
          amount: reservation.amount,
          currency: payment.currency,
        },
      });
    });
    return { kind: "settled" };
  }

  async function release(reservation: RefundReservation, orderId: string, reason: string) {
    await deps.uow.run((scope) => scope.payments.releaseReservation(reservation.id));
    deps.log.warn(
      { order_id: orderId, payment_id: reservation.payment.payment_id, amount: reservation.amount, reason },
      "refund refused by the gateway; its reservation is released",
    );
  }

  return {
    /**
     * A full or partial refund of one payment (default: the latest with something left) by an
     * admin. `requestKey` (the admin's Idempotency-Key) lets a retry after a lost answer take up the
     * same reservation, so the gateway is asked about the same refund again.
     */
    async refund(orderId: string, request: RefundRequest, actorId: string, requestKey: string | null) {
      const body = { payment_id: request.payment_id ?? null, amount: request.amount ?? null };
      const key = requestKey === null ? null : { key: requestKey, hash: await requestHash(body) };
      const reservation = await reserve(orderId, request, actorId, key);
      if (reservation === null) return;
      const asked = await ask(reservation, orderId, actorId);
      if (asked.kind === "refused") throw asked.error;
    },

    /** The settle job: asks the gateway again about a reservation still open, with the same reference. */
    async settle({ reservation_id: reservationId, order_id: orderId, actor_id: actorId }: SettleRefund) {
      const taken = await deps.uow.run((scope) => scope.payments.claimReservation(reservationId, REFUND_CLAIM_SECONDS));
      if (!taken) return;
      if (!taken.claimed) throw new RefundInProgress();
      await ask(taken.reservation, orderId, actorId);
    },
  };
}
