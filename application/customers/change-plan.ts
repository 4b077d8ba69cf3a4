import type { BillingInterval } from "../../domain/catalog/pricing.ts";
import { BILLING_INTERVALS } from "../../domain/catalog/pricing.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { OrderRepository } from "../checkout/ports.ts";
import type { SubscriptionRecord, SubscriptionRepository } from "../fulfillment/ports.ts";
import type { OrderFulfillment } from "../payments/fulfillment-ports.ts";
import type {
  GatewayProductRefs,
  PaymentGateway,
  PlanChange,
  PlanChangeTiming,
  VariantPrices,
} from "../payments/ports.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import { UpstreamRejected } from "../shared/errors.ts";
import { followGatewayPlan } from "../shared/subscription-plan.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import { PlanChangeRefusedByGateway, SubscriptionChangeRefused, SubscriptionNotFound } from "./errors.ts";
import type { CustomerReadModel, CustomerSubscription } from "./ports.ts";

/**
 * When each kind of change takes effect at a gateway: a move to a longer interval (monthly to
 * yearly), and one to a shorter interval (yearly to monthly). Set per gateway in the wiring;
 * docs/decisions/subscriber-self-service.md says why.
 */
export interface PlanChangePolicy {
  readonly longer: PlanChangeTiming;
  readonly shorter: PlanChangeTiming;
}

/** One plan the subscriber can move to, with what the gateway says it would bill. */
export interface PlanOption {
  readonly variant: BillingInterval;
  readonly effective: PlanChangeTiming;
  /** The variant's price now, per unit, before any credit. */
  readonly price: number;
  readonly currency: string;
  /** Charged at once: the new price less the credit for the unused time; 0 for a change at the period end. */
  readonly due_now: number;
  /** Each renewal's amount on the new plan, tax included. */
  readonly next_amount: number;
  readonly next_billing_at: Date | null;
}

export interface PlanOptions {
  readonly subscription_id: string;
  readonly variant: BillingInterval;
  /** A change that takes effect at the end of the paid period, when one is waiting. */
  readonly pending: { readonly variant: BillingInterval; readonly at: Date } | null;
  readonly options: readonly PlanOption[];
}

export interface PlanChanged {
  readonly subscription: CustomerSubscription;
  readonly change: { readonly variant: BillingInterval; readonly effective: PlanChangeTiming; readonly at: Date };
}

const LENGTH: Readonly<Record<BillingInterval, number>> = { monthly: 1, yearly: 12 };

type PlanCalls = Pick<PaymentGateway, "previewPlanChange" | "changePlan">;

/**
 * A subscriber moves a subscription to another interval. The gateway bills the change (its own
 * proration) and reports it; the record follows the plan the gateway answers with at once, and the
 * gateway's events (the proration payment, the subscription's update) find it already there.
 */
export function makeChangePlan(deps: {
  readonly subscriptions: Pick<SubscriptionRepository, "find">;
  readonly orders: Pick<OrderRepository, "find">;
  readonly prices: VariantPrices;
  readonly refs: Pick<GatewayProductRefs, "list">;
  readonly gateways: Readonly<Record<PaymentGatewayName, PlanCalls>>;
  readonly policy: Readonly<Record<PaymentGatewayName, PlanChangePolicy>>;
  readonly readModel: Pick<CustomerReadModel, "subscription">;
  readonly uow: UnitOfWork;
  readonly fulfillment: OrderFulfillment;
  readonly clock: Clock;
}) {
  async function changeable(customerId: string, id: string) {
    const record = await deps.subscriptions.find(id);
    // Another customer's subscription is simply not found: its existence is not theirs to learn.
    if (!record || record.customer_id !== customerId) throw new SubscriptionNotFound();
    if (record.status === "cancelled") throw new SubscriptionChangeRefused("cancelled");
    if (!record.gateway_subscription_id) throw new SubscriptionChangeRefused("unconfirmed");
    if (record.status === "past_due" || record.status === "suspended") throw new SubscriptionChangeRefused("past_due");
    if (record.status === "trialing") throw new SubscriptionChangeRefused("trialing");
    if (record.cancel_at_period_end) throw new SubscriptionChangeRefused("cancelling");
    return { record, gatewayId: record.gateway_subscription_id };
  }

  /** The change to `variant` as the gateway is asked for it, or undefined when the product does not sell it. */
  async function planChange(
    record: SubscriptionRecord,
    gatewayId: string,
    variant: BillingInterval,
  ): Promise<PlanChange | undefined> {
    const price = await deps.prices.price(record.product_id, variant);
    if (price === undefined) return undefined;
    const details = await deps.orders.find(record.order_id);
    const item = details?.items.find((each) => each.id === record.order_item_id);
    if (!details || !item) throw new SubscriptionNotFound();
    const { order } = details;
    const gateway = record.gateway as PaymentGatewayName;
    const synced = (await deps.refs.list(record.product_id, gateway, order.gateway_environment)).find(
      (ref) =>
        ref.slot === variant &&
        ref.amount === price &&
        ref.currency === order.currency &&
        ref.tax_behavior === order.tax_behavior,
    );
    const policy = deps.policy[gateway];
    return {
      subscription_id: gatewayId,
      order_id: order.id,
      product_name: item.product_name,
      variant,
      unit_amount: price,
      currency: order.currency,
      tax_behavior: order.tax_behavior,
      gateway_price_id: synced?.remote_id ?? null,
      timing: LENGTH[variant] > LENGTH[record.billing_interval] ? policy.longer : policy.shorter,
    };
  }

  const refuse = (message: string): never => {
    throw new ValidationFailed([{ path: "/variant", code: "PLAN_NOT_OFFERED", message }]);
  };

  return {
    async options(customerId: string, id: string): Promise<PlanOptions> {
      const { record, gatewayId } = await changeable(customerId, id);
      const gateway = deps.gateways[record.gateway as PaymentGatewayName];
      const options: PlanOption[] = [];
      for (const variant of BILLING_INTERVALS) {
        if (variant === record.billing_interval) continue;
        const change = await planChange(record, gatewayId, variant);
        if (!change) continue;
        const preview = await gateway.previewPlanChange(change);
        options.push({
          variant,
          effective: change.timing,
          price: change.unit_amount,
          currency: change.currency,
          due_now: preview.due_now,
          next_amount: preview.next_amount,
          next_billing_at: preview.next_billing_at ? new Date(preview.next_billing_at) : null,
        });
      }
      const pending =
        record.pending_interval && record.pending_at
          ? { variant: record.pending_interval, at: record.pending_at }
          : null;
      return { subscription_id: record.id, variant: record.billing_interval, pending, options };
    },

    async change(customerId: string, id: string, variant: BillingInterval): Promise<PlanChanged> {
      const { record, gatewayId } = await changeable(customerId, id);
      if (variant === record.billing_interval) refuse(`The subscription is already ${variant}.`);
      const change =
        (await planChange(record, gatewayId, variant)) ?? refuse(`The product is not sold ${variant} at the moment.`);
      const remote = await deps.gateways[record.gateway as PaymentGatewayName].changePlan(change).catch((error) => {
        // A refusal of the subscriber's (a declined card, Paddle's lock before a renewal) is theirs
        // to read; the gateway's own failures stay upstream errors.
        if (error instanceof UpstreamRejected && error.status >= 400 && error.status < 500 && error.status !== 401) {
          throw new PlanChangeRefusedByGateway(error.detail);
        }
        throw error;
      });
      const occurrence = `${record.gateway}:plan:${remote.price_id ?? variant}:${remote.current_period_end ?? ""}`;
      const now = deps.clock();
      // The gateway bills the new price from the end of the paid period, as it reports it.
      const paidUntil = remote.current_period_end ? new Date(remote.current_period_end) : null;
      const at = await deps.uow.run(async (scope) => {
        let effectiveAt = paidUntil ?? now;
        for (const each of await scope.subscriptions.findByGatewayId(record.gateway, gatewayId)) {
          const moved = await followGatewayPlan(scope, deps.fulfillment, each, { remote, for_sale: true }, occurrence);
          // Already on the new plan (the gateway's own event applied it first), or applied now.
          if (moved || remote.billing_interval === variant || each.billing_interval === variant) continue;
          // The change waits at the gateway (Stripe's schedule): the record says what comes when.
          effectiveAt = paidUntil ?? each.current_period_end ?? now;
          const later = paidUntil && (!each.current_period_end || paidUntil > each.current_period_end);
          await scope.subscriptions.update(each.id, {
            pending: { interval: variant, at: effectiveAt },
            ...(later ? { current_period_end: paidUntil } : {}),
          });
        }
        return change.timing === "now" ? null : effectiveAt;
      });
      const subscription = await deps.readModel.subscription(customerId, record.id);
      if (!subscription) throw new SubscriptionNotFound();
      return { subscription, change: { variant, effective: change.timing, at: at ?? now } };
    },
  };
}
