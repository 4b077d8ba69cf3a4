import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { SubscriptionRecord, SubscriptionRepository } from "../fulfillment/ports.ts";
import type { PaymentGateway, RemoteSubscription } from "../payments/ports.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import { UpstreamRejected } from "../shared/errors.ts";
import { recordSubscriptionEnded } from "../shared/subscription-ended.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import { SubscriptionChangeRefused, SubscriptionEnded, SubscriptionNotFound } from "./errors.ts";
import type { CustomerReadModel, CustomerSubscription, FulfillmentActions } from "./ports.ts";

/** The gateways' words for a subscription that ended and bills no more (Stripe's and Paddle's). */
const ENDED_AT_GATEWAY: ReadonlySet<string> = new Set(["canceled", "incomplete_expired"]);

type CancellationCalls = Pick<
  PaymentGateway,
  "scheduleCancellation" | "resumeSubscription" | "getSubscription" | "releasePlanChange"
>;

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
  readonly fulfillment: FulfillmentActions;
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
        await scope.subscriptions.update(each.id, {
          cancel_at_period_end: remote.cancel_at_period_end,
          // A plan change that waited for the period end is dropped with the cancellation.
          ...(remote.cancel_at_period_end ? { pending: null } : {}),
        });
      }
    });
    const view = await deps.readModel.subscription(customerId, record.id);
    if (!view) throw new SubscriptionNotFound();
    return view;
  }

  const gatewayOf = (record: SubscriptionRecord) => deps.gateways[record.gateway as PaymentGatewayName];

  /**
   * Records the end the gateway reports, on every item its subscription billed, cancels what they
   * delivered (as the gateway's own cancellation event would, which may be late or lost), and
   * refuses the change.
   */
  async function caughtUp(record: SubscriptionRecord, remote: RemoteSubscription): Promise<never> {
    const at = remote.cancelled_at ? new Date(remote.cancelled_at) : deps.clock();
    await deps.uow.run(async (scope) => {
      // Under the rows' lock: the gateway's own cancellation event may be recording the end meanwhile.
      for (const each of await scope.subscriptions.findByGatewayId(record.gateway, remote.subscription_id)) {
        await recordSubscriptionEnded(scope, each, at);
        const cause = `ended at the gateway:${remote.subscription_id}`;
        await deps.fulfillment.actOnOrder(scope, each, "cancel", "subscription ended at the gateway", cause);
      }
    });
    throw new SubscriptionEnded(record, remote, at);
  }

  /**
   * Asks the gateway for a change. Gateways refuse to change what already ended, each in its own
   * words: on a refusal the subscription is read back, and only when the gateway says it ended (or
   * when its answer does) is the record brought up to date and the change a `SubscriptionEnded`.
   */
  async function change(
    record: SubscriptionRecord,
    gatewayId: string,
    ask: (gateway: CancellationCalls) => Promise<RemoteSubscription>,
  ): Promise<RemoteSubscription> {
    const gateway = gatewayOf(record);
    let remote: RemoteSubscription;
    try {
      remote = await ask(gateway);
    } catch (error) {
      if (!(error instanceof UpstreamRejected)) throw error;
      const current = await gateway.getSubscription(gatewayId).catch(() => undefined);
      if (!current || !ENDED_AT_GATEWAY.has(current.status)) throw error;
      remote = current;
    }
    return ENDED_AT_GATEWAY.has(remote.status) ? caughtUp(record, remote) : remote;
  }

  return {
    async cancel(customerId: string, id: string): Promise<CustomerSubscription> {
      const { record, gatewayId } = await changeable(customerId, id);
      // A gateway may refuse to cancel what waits to change plan (Stripe's schedule): that goes first.
      const ask = async (gateway: CancellationCalls) => {
        if (record.pending_interval !== null) await gateway.releasePlanChange(gatewayId);
        return gateway.scheduleCancellation(gatewayId);
      };
      return show(customerId, record, await change(record, gatewayId, ask));
    },

    async resume(customerId: string, id: string): Promise<CustomerSubscription> {
      const { record, gatewayId } = await changeable(customerId, id);
      const end = record.current_period_end;
      if (record.cancel_at_period_end && end !== null && end <= deps.clock()) {
        throw new SubscriptionChangeRefused("period_ended");
      }
      return show(customerId, record, await change(record, gatewayId, (g) => g.resumeSubscription(gatewayId)));
    },
  };
}
