import { deliverForControl } from "../control-result.ts";
import { createRenewalControls } from "../renewal-controls.ts";
import type { WebhookDeliverer } from "../webhook-deliverer.ts";
import type { GatewayABilling } from "./billing.ts";
import { PaddleError } from "./errors.ts";
import { type EventFactory, periodEndEvents } from "./period-end-events.ts";

/** The `/__sim/gateway_a` controls: period ends on demand or by the clock, armed failures, chargebacks. */
export function createGatewayAControls(deps: {
  readonly billing: GatewayABilling;
  readonly deliverer: WebhookDeliverer;
  readonly event: EventFactory;
  readonly now: () => Date;
}) {
  const { billing, deliverer, event } = deps;
  const renewals = createRenewalControls({
    endPeriod: (id, succeeds) => billing.endPeriod(id, succeeds),
    requireSubscription: (id) => billing.subscription(id),
    due: () => billing.due(deps.now()),
    pastDue: (id) => billing.subscription(id).status === "past_due",
    eventsOf: (step) => periodEndEvents(step, event),
    describe: (step) => ("transaction" in step ? { transaction: step.transaction } : {}),
    deliverer,
  });

  async function adjusted(adjustment: ReturnType<GatewayABilling["chargeback"]>) {
    const created = event("adjustment.created", adjustment);
    return { ...(await deliverForControl(deliverer, [created], created)), adjustment };
  }

  return {
    ...renewals,
    async cancelNow(id: string) {
      const { subscription, changed } = billing.cancel(id, "immediately");
      if (!changed) throw PaddleError.conflict(`${id} is already canceled.`);
      return { ...(await deliverer.deliver(event("subscription.canceled", subscription))), subscription };
    },
    chargeback: (transactionId: string, amount: number | null) => adjusted(billing.chargeback(transactionId, amount)),
    reverseChargeback: (transactionId: string) => adjusted(billing.reverseChargeback(transactionId)),
  };
}
