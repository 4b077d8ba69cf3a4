import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import type { Log } from "../shared/clock-and-log.ts";
import type { JobHandler } from "../shared/jobs.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import { expireCheckoutJob } from "./jobs.ts";
import type { OrderRepository } from "./ports.ts";

const BATCH = 100;

/**
 * The minute tick's part: every order still unpaid `minutes` after it was placed (or
 * `discountHoldMinutes`, when it holds a limited code's redemption) becomes `expired`,
 * and a job closes its checkout at the gateway, in the same transaction. The gateway is called by
 * the job, never here: an outage delays the closing (the job retries), and loses nothing.
 */
export function makeExpireUnpaidOrders(deps: {
  readonly uow: UnitOfWork;
  readonly log: Log;
  readonly minutes: number;
  /**
   * How long an unpaid order holds one of a limited code's redemptions: then it expires, sooner
   * than `minutes`, and the redemption is free for another checkout.
   */
  readonly discountHoldMinutes?: number;
}) {
  return async function expireUnpaidOrders(now: Date): Promise<number> {
    const placedBefore = new Date(now.getTime() - deps.minutes * 60_000);
    const holdMinutes = Math.min(deps.minutes, deps.discountHoldMinutes ?? deps.minutes);
    const holdBefore = new Date(now.getTime() - holdMinutes * 60_000);
    let expired = 0;
    for (;;) {
      const batch = await deps.uow.run(async (scope) => {
        const orders = await scope.orders.expireUnpaid(placedBefore, BATCH, holdBefore);
        for (const order of orders) {
          await scope.jobs.enqueue(expireCheckoutJob({ order_id: order.id }));
        }
        return orders;
      });
      for (const order of batch) {
        deps.log.info(
          { order_id: order.id, gateway: order.payment_gateway, session_id: order.checkout_session_id },
          "unpaid order expired",
        );
      }
      expired += batch.length;
      if (batch.length < BATCH) return expired;
    }
  };
}

/**
 * Closes the checkout of an expired order at its gateway so it can no longer be paid. A checkout
 * the gateway closed already (paid a moment ago, expired on its own) is fine: a payment that got
 * through is recorded and flagged when its event arrives. Failures throw, and the job retries.
 */
export function makeExpireGatewayCheckout(deps: {
  readonly orders: Pick<OrderRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, Pick<PaymentGateway, "expireCheckout">>>;
  readonly log: Log;
}): JobHandler<typeof expireCheckoutJob> {
  return async function expireGatewayCheckout({ order_id }): Promise<void> {
    const found = await deps.orders.find(order_id);
    if (!found) return;
    const { order } = found;
    // A checkout that never opened has nothing to close; a paid one is the payment's business.
    if (order.status !== "expired" || !order.checkout_session_id) return;
    const closure = await deps.gateways[order.payment_gateway].expireCheckout(order.checkout_session_id);
    deps.log.info(
      {
        order_id: order.id,
        gateway: order.payment_gateway,
        session_id: order.checkout_session_id,
        closed_now: closure.closed_now,
        gateway_status: closure.status,
      },
      closure.closed_now ? "checkout expired at the gateway" : "checkout was already closed at the gateway",
    );
  };
}
