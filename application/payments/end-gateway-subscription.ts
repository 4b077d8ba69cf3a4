import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { SubscriptionRecord, SubscriptionRepository } from "../fulfillment/ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import { UpstreamRejected } from "../shared/errors.ts";
import type { PayloadOf } from "../shared/jobs.ts";
import { recordSubscriptionEnded } from "../shared/subscription-ended.ts";
import type { TransactionScope, UnitOfWork } from "../shared/unit-of-work.ts";
import { endGatewaySubscriptionJob } from "./jobs.ts";
import type { PaymentGateway } from "./ports.ts";

/**
 * Ends one subscription at its gateway by the ending job: fulfillment asks this when an admin
 * cancelled the last delivery the subscription billed.
 */
export async function endSubscriptionBilling(
  scope: TransactionScope,
  subscription: Pick<SubscriptionRecord, "id">,
  reason: string,
): Promise<void> {
  await scope.jobs.enqueue(endGatewaySubscriptionJob({ subscription_id: subscription.id, reason }));
}

/**
 * Stops what an order's subscriptions bill at their gateway, by the ending job: once the shop has
 * given the money back (a full refund) or lost it (a dispute), nothing more may be charged.
 */
export async function endOrderBilling(scope: TransactionScope, orderId: string, reason: string): Promise<void> {
  const found = await scope.orders.find(orderId);
  for (const item of found?.items ?? []) {
    const subscription = await scope.subscriptions.findForItem(item.id);
    if (!subscription?.gateway_subscription_id || subscription.status === "cancelled") continue;
    await scope.jobs.enqueue(endGatewaySubscriptionJob({ subscription_id: subscription.id, reason }));
  }
}

type EndingCalls = Pick<PaymentGateway, "cancelSubscription" | "getSubscription">;

/**
 * Ends a subscription at its gateway now and records it as cancelled. Repeats are harmless: one
 * already ended (here or at the gateway) is left alone, and a gateway that no longer knows it
 * bills nothing either.
 */
export function makeEndGatewaySubscription(deps: {
  readonly subscriptions: Pick<SubscriptionRepository, "find">;
  readonly uow: UnitOfWork;
  readonly gateways: Readonly<Record<PaymentGatewayName, EndingCalls>>;
  readonly clock: Clock;
  readonly log: Log;
}) {
  async function end(gateway: EndingCalls, id: string): Promise<void> {
    try {
      await gateway.cancelSubscription(id);
    } catch (error) {
      if (!(error instanceof UpstreamRejected)) throw error;
      if (error.status === 404) return;
      // Gateways refuse to cancel what already ended, each in its own words: ask what it is now.
      if ((await gateway.getSubscription(id)).status !== "canceled") throw error;
    }
  }

  return async function endGatewaySubscription(payload: PayloadOf<typeof endGatewaySubscriptionJob>): Promise<void> {
    const subscription = await deps.subscriptions.find(payload.subscription_id);
    if (!subscription || subscription.status === "cancelled" || !subscription.gateway_subscription_id) return;
    const gateway = deps.gateways[subscription.gateway as PaymentGatewayName];
    const gatewayId = subscription.gateway_subscription_id;
    await end(gateway, gatewayId);
    await deps.uow.run(async (scope) => {
      // Under the rows' lock: the gateway's own cancellation event may be recording the end meanwhile.
      const locked = await scope.subscriptions.findByGatewayId(subscription.gateway, gatewayId);
      const current = locked.find((each) => each.id === subscription.id) ?? subscription;
      await recordSubscriptionEnded(scope, current, deps.clock());
    });
    deps.log.info(
      {
        gateway: subscription.gateway,
        order_id: subscription.order_id,
        subscription_id: subscription.gateway_subscription_id,
        reason: payload.reason,
      },
      "subscription ended at the gateway",
    );
  };
}
