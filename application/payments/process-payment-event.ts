import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { UnreadableGatewayEvent } from "../../domain/payments/errors.ts";
import type { GatewayEvent } from "../../domain/payments/gateway-event.ts";
import { decodeGatewayEvent } from "../../domain/payments/gateway-event-codec.ts";
import type { SubscriptionRepository } from "../fulfillment/subscription-ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import { PermanentJobFailure, SubscriptionChangedMeanwhile } from "../shared/errors.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { recordSubscriptionEnded } from "../shared/subscription-ended.ts";
import { noticeSubscription, TRIAL_OCCURRENCE } from "../shared/subscription-notice.ts";
import { followGatewayPlan } from "../shared/subscription-plan.ts";
import type { TransactionScope, UnitOfWork } from "../shared/unit-of-work.ts";
import type { OrderFulfillment } from "./fulfillment-ports.ts";
import type { InboxEntry, WebhookInboxReader } from "./inbox-ports.ts";
import type { paymentEventJob } from "./jobs.ts";
import type { PaymentGateway, RemoteSubscription, ResolvedPayment, VariantPrices } from "./ports.ts";
import { type EventContext, makePaymentReceivers } from "./receive-payment.ts";
import { makeRefundAndDisputeReceivers } from "./refunds-and-disputes.ts";

export interface ProcessPaymentEventDeps {
  /** Reads the stored event before the transaction (which reads it again) without one of its own. */
  readonly inbox: Pick<WebhookInboxReader, "find">;
  /** Marks the subscriptions' rows before the gateway is asked about them (see `versionOf`). */
  readonly subscriptions: Pick<SubscriptionRepository, "versionOf">;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly log: Log;
  readonly fulfillment: OrderFulfillment;
  /** Whether the product still sells the variant a gateway moved a subscription to. */
  readonly prices: VariantPrices;
}

const NO_PAYMENT: ResolvedPayment = { payment_id: "", payment_intent_id: null, charge_id: null, invoice_id: null };

/**
 * The payment job: turns one stored webhook into changes of the ledger, the order and its
 * deliveries, all in one transaction, and hands over to fulfillment. No product- or driver-specific
 * branching lives here: how an item is delivered is its fulfillment adapter's business. Every step
 * is idempotent: gateways repeat themselves and jobs rerun after crashes.
 */
export function makeProcessPaymentEvent(deps: ProcessPaymentEventDeps): JobHandler<typeof paymentEventJob> {
  const receivers = makePaymentReceivers(deps);
  const moneyBack = makeRefundAndDisputeReceivers(deps);

  async function subscriptionEnded(event: Extract<GatewayEvent, { kind: "cancelled" }>, scope: TransactionScope) {
    for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id)) {
      await recordSubscriptionEnded(scope, subscription, deps.clock());
      await deps.fulfillment.actOnOrder(scope, subscription, "cancel", "subscription cancelled", event.event_id);
    }
  }

  /**
   * A cancellation scheduled or withdrawn (here or at the gateway's own portal) shows on the
   * record; a period end moves only forward, and only while the gateway still collects, so a
   * failed renewal that moved the gateway's period does not postpone the lapse.
   */
  async function subscriptionChanged(
    event: Extract<GatewayEvent, { kind: "subscription_updated" }>,
    remote: RemoteSubscription,
    scope: TransactionScope,
  ) {
    const end = remote.current_period_end ? new Date(remote.current_period_end) : null;
    const collecting = remote.status === "active" || remote.status === "trialing";
    for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, remote.subscription_id)) {
      await scope.subscriptions.update(subscription.id, { cancel_at_period_end: remote.cancel_at_period_end });
      if (subscription.status === "cancelled") continue;
      // A price or plan changed here or in the gateway's own portal or dashboard: followed alike.
      const interval = remote.billing_interval;
      const for_sale = interval !== null && (await deps.prices.price(subscription.product_id, interval)) !== undefined;
      const occurrence = `${event.gateway}:${event.event_id}`;
      if (await followGatewayPlan(scope, deps.fulfillment, subscription, { remote, for_sale }, occurrence)) continue;
      const later = end && collecting && (!subscription.current_period_end || end > subscription.current_period_end);
      // A change waiting for a period end that passed without it (dropped at the gateway) is forgotten.
      const stale = subscription.pending_at !== null && end !== null && end > subscription.pending_at;
      await scope.subscriptions.update(subscription.id, {
        ...(later ? { current_period_end: end } : {}),
        ...(stale ? { pending: null } : {}),
      });
    }
  }

  /** Told once per subscription's trial, whether this event or the minute tick finds it first. */
  async function trialEnding(event: Extract<GatewayEvent, { kind: "trial_ending" }>, scope: TransactionScope) {
    for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id)) {
      const end = event.trial_ends_at ? new Date(event.trial_ends_at) : subscription.trial_ends_at;
      // A trial already over (an event that arrived late) is not announced.
      if (subscription.status !== "trialing" || !end || end <= deps.clock()) continue;
      await noticeSubscription(scope, "subscription.trial_ending", subscription, TRIAL_OCCURRENCE, {
        trial_ends_at: end.toISOString(),
      });
    }
  }

  async function apply(event: GatewayEvent, context: EventContext, scope: TransactionScope) {
    switch (event.kind) {
      case "paid":
        return receivers.paid(event, context, scope);
      case "renewed":
        return receivers.renewed(event, context, scope);
      case "refunded":
        return moneyBack.refunded(event, context, scope);
      case "dispute_opened":
      case "dispute_won":
      case "dispute_lost":
        return moneyBack.disputed(event, context, scope);
      case "cancelled":
        return subscriptionEnded(event, scope);
      case "prorated":
        return receivers.prorated(event, context, scope);
      case "subscription_updated":
        if (context.subscription) await subscriptionChanged(event, context.subscription, scope);
        return;
      case "trial_ending":
        return trialEnding(event, scope);
      case "payment_failed":
        if (event.subscription_id) {
          for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id)) {
            await scope.subscriptions.update(subscription.id, { status: "past_due" });
            // Each failed collection is told once, with the way to fix the card.
            await noticeSubscription(
              scope,
              "subscription.payment_failed",
              { ...subscription, status: "past_due" },
              `${event.gateway}:${event.event_id}`,
              { reason: event.reason },
            );
          }
        }
        deps.log.warn({ gateway: event.gateway, event_id: event.event_id, reason: event.reason }, "payment failed");
        return;
      case "ignored":
        return;
    }
  }

  /** The event as it was normalized on arrival. */
  function eventOf(entry: InboxEntry): GatewayEvent {
    try {
      return decodeGatewayEvent(entry.event);
    } catch (error) {
      if (!(error instanceof UnreadableGatewayEvent)) throw error;
      throw new PermanentJobFailure(`inbox entry ${entry.id}: ${error.message}`);
    }
  }

  return async function processPaymentEvent({ inbox_id: inboxId }, job): Promise<void> {
    const entry = await deps.inbox.find(inboxId);
    if (!entry) throw new PermanentJobFailure(`inbox entry ${inboxId} does not exist`);
    if (entry.processed_at) return;
    const gateway = deps.gateways[entry.gateway as PaymentGatewayName];
    if (!gateway) throw new PermanentJobFailure(`inbox entry ${inboxId} names no known gateway (${entry.gateway})`);
    const event = eventOf(entry);
    // Outside the transaction: a call to the gateway never holds a database connection.
    const payment = "payment" in event ? await gateway.resolvePayment(event.payment) : NO_PAYMENT;
    // Events overtake each other: the subscription as it is now, not as the event's body saw it.
    const changed = event.kind === "subscription_updated" ? event.subscription_id : undefined;
    const before = changed === undefined ? undefined : await deps.subscriptions.versionOf(entry.gateway, changed);
    const subscription = changed === undefined ? null : await gateway.getSubscription(changed);
    await deps.uow.run(async (scope) => {
      // Marked first: a run that gets here second (a job run twice) waits on the mark, then applies nothing.
      if (!(await scope.inbox.markProcessed(entry.id))) return;
      // Written while the gateway answered (a customer resumed): its answer may be the older one.
      if (changed !== undefined && (await scope.subscriptions.versionOf(entry.gateway, changed)) !== before) {
        throw new SubscriptionChangedMeanwhile(changed);
      }
      await apply(event, { environment: entry.environment, payment, subscription }, scope);
    }, job);
  };
}
