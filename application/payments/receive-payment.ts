import { expectedFirstPayment, expectedRenewal } from "../../domain/discounts/apply.ts";
import type { Order } from "../../domain/orders/order.ts";
import { canTake } from "../../domain/orders/order-status.ts";
import type { GatewayEnvironment, GatewayEvent } from "../../domain/payments/gateway-event.ts";
import { paysExpected } from "../../domain/payments/payment.ts";
import type { SubscriptionRecord } from "../fulfillment/subscription-ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import { paymentEventData, subscriptionEventData } from "../shared/event-data.ts";
import { noticeSubscription } from "../shared/subscription-notice.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";
import { flagOrderForAttention } from "./attention.ts";
import type { OrderFulfillment } from "./fulfillment-ports.ts";
import type { RemoteSubscription, ResolvedPayment } from "./ports.ts";
import { recordSubscriptions } from "./record-subscriptions.ts";
import { releasePaidOrder } from "./release-paid-order.ts";

type Paid = Extract<GatewayEvent, { kind: "paid" }>;
type Renewed = Extract<GatewayEvent, { kind: "renewed" }>;
type Prorated = Extract<GatewayEvent, { kind: "prorated" }>;

/** What the job learned about an event besides its body: who signed it, its payment's ids, its subscription now. */
export interface EventContext {
  readonly environment: GatewayEnvironment | null;
  readonly payment: ResolvedPayment;
  readonly subscription?: RemoteSubscription | null;
}

const money = (amount: number, currency: string) => `${amount} ${currency}`;

/** Why a payment may not pay this order: another gateway, another environment. */
function bindingProblem(order: Order, event: Paid, environment: GatewayEnvironment | null): string | null {
  if (event.gateway !== order.payment_gateway) {
    return `paid through ${event.gateway}, but the order was placed for ${order.payment_gateway}`;
  }
  if (environment !== null && environment !== order.gateway_environment) {
    return `signed with the ${environment} webhook secret, but the order was placed in ${order.gateway_environment}`;
  }
  if (typeof event.livemode === "boolean" && event.livemode !== (order.gateway_environment === "live")) {
    return `the event is ${event.livemode ? "live" : "test"} mode, but the order was placed in ${order.gateway_environment}`;
  }
  return null;
}

function amountProblem(order: Order, lines: number, event: Paid): string | null {
  const amount = expectedFirstPayment(order, lines, event.discount);
  if (paysExpected(event, { amount, currency: order.currency, tax_behavior: order.tax_behavior })) return null;
  const basis = order.tax_behavior === "exclusive" ? `${event.pre_tax} before tax` : `${event.amount} with tax`;
  return `paid ${money(event.amount, event.currency)} (${basis}), expected ${money(amount, order.currency)} ${order.tax_behavior} of tax`;
}

/**
 * Why a renewal of an order placed with a discount code does not pay what the code promised: the
 * renewing items' price, discounted for as many payments as the code lowers, then in full. A
 * subscription whose plan changed since is not held to the order's prices.
 */
async function renewalProblem(
  scope: TransactionScope,
  orderId: string,
  subscriptions: readonly SubscriptionRecord[],
  event: Renewed,
): Promise<string | null> {
  const found = await scope.orders.find(orderId);
  if (!found || found.order.discount_id === null) return null;
  const { order, items } = found;
  const renewing = items.filter((item) => item.billing_interval !== null);
  const changed = subscriptions.some(
    (subscription) =>
      subscription.pending_interval !== null ||
      renewing.some(
        (item) => item.id === subscription.order_item_id && item.billing_interval !== subscription.billing_interval,
      ),
  );
  const payments = await scope.payments.forOrder(orderId);
  if (changed || payments.some((payment) => payment.kind === "proration")) return null;
  const n = payments.filter((payment) => payment.kind !== "proration").length;
  const full = renewing.reduce((sum, item) => sum + item.amount, 0);
  const expected = expectedRenewal(order, full, n);
  if (paysExpected(event, { amount: expected, currency: order.currency, tax_behavior: order.tax_behavior }))
    return null;
  const basis = order.tax_behavior === "exclusive" ? `${event.pre_tax} before tax` : `${event.amount} with tax`;
  return `renewal ${n - 1} paid ${money(event.amount, event.currency)} (${basis}), expected ${money(expected, order.currency)} with the code ${order.discount_code}`;
}

/** A payment that got through as its order expired: the money is here, the order was closed. */
function lateProblem(order: Order, event: Paid): string | null {
  if (order.status !== "expired") return null;
  return `paid ${money(event.amount, event.currency)} after the order had expired unpaid; nothing was delivered`;
}

/**
 * Payments coming in: a first payment binds to its order and delivers it once; anything else
 * (a mismatch, a second payment, a payment for an order that is no longer waiting) is recorded as
 * money received and put before a person; an order that expired first is flagged. Renewals go
 * into the ledger and extend the period.
 */
export function makePaymentReceivers(deps: {
  readonly clock: Clock;
  readonly log: Log;
  readonly fulfillment: OrderFulfillment;
}) {
  async function paid(event: Paid, context: EventContext, scope: TransactionScope) {
    const found = await scope.orders.find(event.order_id);
    if (!found) throw new PermanentJobFailure(`order ${event.order_id} does not exist`);
    const { order, items } = found;
    const recorded = await scope.payments.record({
      order_id: order.id,
      gateway: event.gateway,
      ...context.payment,
      kind: "initial",
      amount: event.amount,
      tax: event.tax,
      discount: event.discount,
      currency: event.currency,
    });
    // The same payment told again (both `transaction.paid` and `transaction.completed`, say).
    if (!recorded) return;
    // The gateway's subscription exists whatever happens to the order: its renewals must find it.
    await recordSubscriptions(scope, order, items, event.subscription, deps.clock());
    // Paid with the code: one redemption, however the order fares from here.
    await scope.orders.redeemDiscount(order);
    const log = { order_id: order.id, payment_id: recorded.payment_id, gateway: event.gateway };
    const problem =
      bindingProblem(order, event, context.environment) ??
      amountProblem(order, items.length, event) ??
      lateProblem(order, event);
    if (problem) {
      if (canTake(order.status, "flagged")) await scope.orders.move(order, "flagged");
      await flagOrderForAttention(scope, order.id, problem);
      deps.log.warn({ ...log, reason: problem }, "payment does not match the order; nothing delivered");
      return;
    }
    if (!canTake(order.status, "paid")) {
      const reason = `a further payment ${recorded.payment_id} of ${money(event.amount, event.currency)} arrived while the order was ${order.status}; nothing was delivered again`;
      await flagOrderForAttention(scope, order.id, reason);
      deps.log.warn({ ...log, reason }, "a further payment for one order");
      return;
    }
    const moved = await scope.orders.move(order, "paid");
    if (moved.needs_attention) {
      deps.log.warn(log, "order paid but waiting for attention; nothing delivered yet");
      return;
    }
    await releasePaidOrder(scope, deps.fulfillment, moved, items);
    deps.log.info(log, "order paid; fulfillment queued");
  }

  async function renewed(event: Renewed, context: EventContext, scope: TransactionScope) {
    const subscriptions = await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id);
    const first = subscriptions[0];
    // A renewal can overtake the first payment's event: retried until that one has been applied.
    if (!first) throw new Error(`subscription ${event.subscription_id} is not known yet`);
    const recorded = await scope.payments.record({
      order_id: first.order_id,
      gateway: event.gateway,
      ...context.payment,
      kind: "renewal",
      amount: event.amount,
      tax: event.tax,
      discount: event.discount,
      currency: event.currency,
    });
    if (!recorded) return;
    const problem = await renewalProblem(scope, first.order_id, subscriptions, event);
    if (problem) {
      // The period was paid for: it is delivered, and the amount is put before a person.
      await flagOrderForAttention(scope, first.order_id, problem);
      deps.log.warn({ order_id: first.order_id, payment_id: recorded.payment_id, reason: problem }, "renewal amount");
    }
    const end = event.current_period_end ? new Date(event.current_period_end) : null;
    for (const subscription of subscriptions) {
      await scope.subscriptions.update(subscription.id, {
        status: "active",
        ...(end ? { current_period_end: end } : {}),
      });
      // Every paid period reaches the delivery: a license's expiry follows it, a trial converts,
      // and a lapsed subscription that pays again comes back.
      if (subscription.status !== "cancelled") {
        await deps.fulfillment.actOnOrder(scope, subscription, "renew", "subscription renewed", event.event_id);
      }
      const renewedNow = (await scope.subscriptions.find(subscription.id)) ?? subscription;
      await scope.events.publish("subscription.renewed", {
        ...subscriptionEventData(renewedNow),
        payment: paymentEventData(recorded),
      });
      await noticeSubscription(scope, "subscription.renewed", renewedNow, recorded.id, {
        payment_id: recorded.id,
        amount: recorded.amount,
        currency: recorded.currency,
        current_period_end: renewedNow.current_period_end?.toISOString() ?? null,
      });
    }
    deps.log.info(
      { order_id: first.order_id, payment_id: recorded.payment_id, gateway: event.gateway },
      "subscription renewed",
    );
  }

  /**
   * The difference a plan change billed at once: a payment of its own on the subscription's order.
   * The change itself arrives as the subscription's update (or was applied by whoever asked for it).
   */
  async function prorated(event: Prorated, context: EventContext, scope: TransactionScope) {
    const [first] = await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id);
    // Can overtake the first payment's event: retried until that one has been applied.
    if (!first) throw new Error(`subscription ${event.subscription_id} is not known yet`);
    const recorded = await scope.payments.record({
      order_id: first.order_id,
      gateway: event.gateway,
      ...context.payment,
      kind: "proration",
      amount: event.amount,
      tax: event.tax,
      discount: event.discount,
      currency: event.currency,
    });
    if (!recorded) return;
    deps.log.info(
      { order_id: first.order_id, payment_id: recorded.payment_id, gateway: event.gateway, amount: event.amount },
      "plan change billed",
    );
  }

  return { paid, renewed, prorated };
}
