import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Log } from "../shared/clock-and-log.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import type { EndSubscriptionBilling } from "./billing-ports.ts";
import type { FulfillmentAction } from "./ports.ts";

type Act = (id: string, action: FulfillmentAction, reason: string, actorId: string) => Promise<FulfillmentRecord>;

/**
 * An admin acting on a delivery. Cancelling it also stops the billing behind it: the item's
 * subscription is ended at its gateway (payments' job), after the adapter cancelled, so a gateway outage
 * neither blocks nor undoes the cancellation. Cancellations with other causes (the gateway's own
 * cancellation event, a refund, a lost dispute) go through the action job and never reach here.
 */
export function makeAdminFulfillmentActions(deps: {
  readonly act: Act;
  readonly endBilling: EndSubscriptionBilling;
  readonly uow: UnitOfWork;
  readonly log: Log;
}) {
  return async function adminAct(id: string, action: FulfillmentAction, reason: string, actorId: string) {
    const record = await deps.act(id, action, reason, actorId);
    if (action !== "cancel") return record;
    await deps.uow.run(async (scope) => {
      const subscription = await scope.subscriptions.findForItem(record.order_item_id);
      if (!subscription?.gateway_subscription_id || subscription.status === "cancelled") return;
      // One gateway subscription can bill several items of the order: it ends with the last of them.
      const billed = await scope.subscriptions.findByGatewayId(
        subscription.gateway,
        subscription.gateway_subscription_id,
      );
      const deliveries = await scope.fulfillments.list({ order_id: record.order_id }, { limit: 100 });
      const live = deliveries.items.filter(
        (other) => other.status !== "cancelled" && billed.some((each) => each.order_item_id === other.order_item_id),
      );
      if (live.length > 0) {
        deps.log.warn(
          { order_id: record.order_id, gateway: subscription.gateway, live: live.map((other) => other.id) },
          "the gateway subscription still bills other deliveries; it stays until they are cancelled",
        );
        return;
      }
      await deps.endBilling(scope, subscription, reason);
    });
    return record;
  };
}
