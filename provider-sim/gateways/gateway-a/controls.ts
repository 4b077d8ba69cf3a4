import { deliverForControl } from "../control-result.ts";
import type { OutgoingWebhook, WebhookDeliverer } from "../webhook-deliverer.ts";
import type { GatewayABilling } from "./billing.ts";
import { PaddleError } from "./errors.ts";
import { type EventFactory, periodEndEvents } from "./period-end-events.ts";

/** Enough periods for a daily subscription across a year-long clock move. */
const MAX_PERIODS_PER_MOVE = 400;

/** The `/__sim/gateway_a` controls: period ends on demand or by the clock, armed failures, chargebacks. */
export function createGatewayAControls(deps: {
  readonly billing: GatewayABilling;
  readonly deliverer: WebhookDeliverer;
  readonly event: EventFactory;
  readonly now: () => Date;
}) {
  const { billing, deliverer, event } = deps;
  const armed = new Set<string>();

  function succeeds(id: string, fail: boolean | undefined): boolean {
    const failing = fail ?? armed.has(id);
    armed.delete(id);
    return !failing;
  }

  async function adjusted(adjustment: ReturnType<GatewayABilling["chargeback"]>) {
    const created = event("adjustment.created", adjustment);
    return { ...(await deliverForControl(deliverer, [created], created)), adjustment };
  }

  return {
    /** The current period ends now; `fail` overrides an armed outcome. */
    async renewNow(id: string, fail?: boolean) {
      const step = billing.endPeriod(id, succeeds(id, fail));
      const { webhooks, main } = periodEndEvents(step, event);
      return {
        ...(await deliverForControl(deliverer, webhooks, main)),
        outcome: step.kind,
        subscription: step.subscription,
        ...("transaction" in step ? { transaction: step.transaction } : {}),
      };
    },
    armNextRenewal(id: string, outcome: "fail" | "succeed") {
      const subscription = billing.subscription(id);
      if (outcome === "fail") armed.add(id);
      else armed.delete(id);
      return { subscription: subscription.id, next_renewal: outcome };
    },
    /** Every period end the clock has passed, in order, delivered in the background. */
    billDue(): number {
      const webhooks: OutgoingWebhook[] = [];
      let steps = 0;
      for (let round = 0; round < MAX_PERIODS_PER_MOVE; round += 1) {
        const due = billing.due(deps.now());
        if (due.length === 0) break;
        for (const id of due) {
          webhooks.push(...periodEndEvents(billing.endPeriod(id, succeeds(id, undefined)), event).webhooks);
          steps += 1;
        }
      }
      deliverer.deliverInOrder(webhooks);
      return steps;
    },
    async cancelNow(id: string) {
      const { subscription, changed } = billing.cancel(id, "immediately");
      if (!changed) throw PaddleError.conflict(`${id} is already canceled.`);
      return { ...(await deliverer.deliver(event("subscription.canceled", subscription))), subscription };
    },
    chargeback: (transactionId: string, amount: number | null) => adjusted(billing.chargeback(transactionId, amount)),
    reverseChargeback: (transactionId: string) => adjusted(billing.reverseChargeback(transactionId)),
    clear: () => armed.clear(),
  };
}
