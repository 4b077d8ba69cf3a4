import { deliverForControl } from "../control-result.ts";
import { createRenewalControls } from "../renewal-controls.ts";
import type { WebhookDeliverer } from "../webhook-deliverer.ts";
import type { GatewayBBilling } from "./billing.ts";
import type { DisputeBook } from "./disputes.ts";
import { StripeError } from "./errors.ts";
import type { StripeDispute } from "./payment-model.ts";
import { chargeObject } from "./payments.ts";
import { type EventFactory, periodEndEvents } from "./period-end-events.ts";

/** The `/__sim/gateway_b` controls: period ends on demand or by the clock, armed failures, disputes. */
export function createGatewayBControls(deps: {
  readonly billing: GatewayBBilling;
  readonly disputes: DisputeBook;
  readonly deliverer: WebhookDeliverer;
  readonly event: EventFactory;
  readonly now: () => number;
}) {
  const { billing, disputes, deliverer, event, now } = deps;
  const subscriptions = billing.subscriptions;
  /** Trial ends already told of, by subscription and trial end. */
  let warned = new Set<string>();
  const renewals = createRenewalControls({
    endPeriod: (id, succeeds) => subscriptions.endPeriod(id, succeeds),
    requireSubscription: (id) => subscriptions.subscription(id),
    due: () => subscriptions.due(now()),
    pastDue: (id) => subscriptions.subscription(id).status === "past_due",
    eventsOf: (step) => periodEndEvents(step, event),
    describe: (step) => ("invoice" in step ? { invoice: step.invoice } : {}),
    deliverer,
    advanceNotices: () =>
      subscriptions.trialsEnding(now()).flatMap((subscription) => {
        const key = `${subscription.id}:${subscription.trial_end}`;
        if (warned.has(key)) return [];
        warned = new Set(warned).add(key);
        return [event("customer.subscription.trial_will_end", subscription)];
      }),
  });

  return {
    ...renewals,
    clear() {
      renewals.clear();
      warned = new Set();
    },
    async cancelNow(id: string) {
      const { subscription, changed } = subscriptions.cancel(id);
      if (!changed) throw new StripeError(409, "invalid_request_error", `The subscription ${id} is already canceled.`);
      return { ...(await deliverer.deliver(event("customer.subscription.deleted", subscription))), subscription };
    },
    async dispute(chargeId: string, input: { reason: StripeDispute["reason"]; amount: number | null }) {
      const { dispute, payment } = disputes.open(chargeId, input, now());
      const created = event("charge.dispute.created", dispute);
      const delivery = await deliverForControl(deliverer, [created], created);
      return { ...delivery, dispute, charge: chargeObject(payment) };
    },
    async closeDispute(id: string, outcome: "won" | "lost") {
      const dispute = disputes.close(id, outcome);
      const closed = event("charge.dispute.closed", dispute);
      return { ...(await deliverForControl(deliverer, [closed], closed)), dispute };
    },
  };
}
