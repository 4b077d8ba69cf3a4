import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { fixedError, ReasonedRefusal } from "../../domain/shared/domain-error.ts";
import type { SubscriptionRecord, SubscriptionRepository } from "../fulfillment/ports.ts";
import type { PaymentGateway, RemoteSubscription } from "../payments/ports.ts";
import type { Clock } from "../shared/runtime.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import type { CustomerReadModel, CustomerSubscription } from "./ports.ts";

export class SubscriptionNotFound extends fixedError(
  "SUBSCRIPTION_NOT_FOUND",
  "not_found",
  "The subscription does not exist.",
) {}

/** Why a subscription cannot be cancelled or resumed now. */
export type SubscriptionRefusal = "cancelled" | "period_ended" | "unconfirmed";

const REFUSALS: Readonly<Record<SubscriptionRefusal, string>> = {
  cancelled: "This subscription has already ended.",
  period_ended: "The paid period is over: the cancellation took effect and can no longer be withdrawn.",
  unconfirmed: "The payment gateway has not confirmed this subscription yet; try again in a moment.",
};

export class SubscriptionChangeRefused extends ReasonedRefusal<SubscriptionRefusal> {
  constructor(reason: SubscriptionRefusal) {
    super("SUBSCRIPTION", REFUSALS, reason);
  }
}

type CancellationCalls = Pick<PaymentGateway, "scheduleCancellation" | "resumeSubscription">;

/**
 * A customer lets a subscription run out at the end of its paid period, or changes their mind
 * before it ends. The gateway keeps the schedule and ends the subscription itself; its
 * cancellation event then cancels the deliveries. Both calls may be repeated: the gateway's answer
 * is what the record shows.
 */
export function makeCustomerSubscriptions(deps: {
  readonly readModel: Pick<CustomerReadModel, "subscription">;
  readonly subscriptions: Pick<SubscriptionRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, CancellationCalls>>;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
}) {
  async function changeable(customerId: string, id: string) {
    const record = await deps.subscriptions.find(id);
    // Another customer's subscription is simply not found: its existence is not theirs to learn.
    if (!record || record.customer_id !== customerId) throw new SubscriptionNotFound();
    if (record.status === "cancelled") throw new SubscriptionChangeRefused("cancelled");
    if (!record.gateway_subscription_id) throw new SubscriptionChangeRefused("unconfirmed");
    return { record, gatewayId: record.gateway_subscription_id };
  }

  async function show(customerId: string, record: SubscriptionRecord, remote: RemoteSubscription) {
    await deps.uow.run(async (scope) => {
      // One gateway subscription can bill several items of an order: they end, or run on, together.
      for (const each of await scope.subscriptions.findByGatewayId(record.gateway, remote.subscription_id)) {
        await scope.subscriptions.update(each.id, { cancel_at_period_end: remote.cancel_at_period_end });
      }
    });
    const view = await deps.readModel.subscription(customerId, record.id);
    if (!view) throw new SubscriptionNotFound();
    return view;
  }

  const gatewayOf = (record: SubscriptionRecord) => deps.gateways[record.gateway as PaymentGatewayName];

  return {
    async cancel(customerId: string, id: string): Promise<CustomerSubscription> {
      const { record, gatewayId } = await changeable(customerId, id);
      return show(customerId, record, await gatewayOf(record).scheduleCancellation(gatewayId));
    },

    async resume(customerId: string, id: string): Promise<CustomerSubscription> {
      const { record, gatewayId } = await changeable(customerId, id);
      const end = record.current_period_end;
      if (record.cancel_at_period_end && end !== null && end <= deps.clock()) {
        throw new SubscriptionChangeRefused("period_ended");
      }
      return show(customerId, record, await gatewayOf(record).resumeSubscription(gatewayId));
    },
  };
}
