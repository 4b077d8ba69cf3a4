import { deliverForControl } from "../control-result.ts";
import type { OutgoingWebhook, WebhookDeliverer } from "../webhook-deliverer.ts";
import type { GatewayBBilling } from "./billing.ts";
import type { DisputeBook } from "./disputes.ts";
import { StripeError } from "./errors.ts";
import type { StripeDispute } from "./payment-model.ts";
import { chargeObject } from "./payments.ts";
import { type EventFactory, periodEndEvents } from "./period-end-events.ts";

/** Enough periods for a daily subscription across a year-long clock move. */
const MAX_PERIODS_PER_MOVE = 400;

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
  /** Subscriptions whose next collection is to fail, once. */
  const armed = new Set<string>();

  function succeeds(id: string, fail: boolean | undefined): boolean {
    const failing = fail ?? armed.has(id);
    armed.delete(id);
    return !failing;
  }

  return {
    /** The current period ends now; `fail` overrides an armed outcome. */
    async renewNow(id: string, fail?: boolean) {
      const step = subscriptions.endPeriod(id, succeeds(id, fail));
      const { webhooks, main } = periodEndEvents(step, event);
      return {
        ...(await deliverForControl(deliverer, webhooks, main)),
        outcome: step.kind,
        subscription: step.subscription,
        ...("invoice" in step ? { invoice: step.invoice } : {}),
      };
    },
    armNextRenewal(id: string, outcome: "fail" | "succeed") {
      const subscription = subscriptions.subscription(id);
      if (outcome === "fail") armed.add(id);
      else armed.delete(id);
      return { subscription: subscription.id, next_renewal: outcome };
    },
    /** Every period end the clock has passed, in order, delivered in the background. */
    billDue(): number {
      const webhooks: OutgoingWebhook[] = [];
      let steps = 0;
      for (let round = 0; round < MAX_PERIODS_PER_MOVE; round += 1) {
        const due = subscriptions.due(now());
        if (due.length === 0) break;
        for (const id of due) {
          webhooks.push(...periodEndEvents(subscriptions.endPeriod(id, succeeds(id, undefined)), event).webhooks);
          steps += 1;
        }
      }
      deliverer.deliverInOrder(webhooks);
      return steps;
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
    clear: () => armed.clear(),
  };
}
