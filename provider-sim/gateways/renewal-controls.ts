import { deliverForControl } from "./control-result.ts";
import type { OutgoingWebhook, WebhookDeliverer } from "./webhook-deliverer.ts";

/** Enough periods for a daily subscription across a year-long clock move. */
const MAX_PERIODS_PER_MOVE = 400;

/** What a period end did to a subscription, as either sandbox's billing reports it. */
export interface PeriodEndStep {
  readonly kind: string;
  readonly subscription: unknown;
}

/**
 * The period-end controls both sandboxes share: a period ends on demand (`renew`) or when the
 * clock passes it (`billDue`), and a failure can be armed for the next collection, once.
 */
export function createRenewalControls<Step extends PeriodEndStep>(deps: {
  /** Ends the current period of a subscription, collecting (or failing to collect) the next one. */
  readonly endPeriod: (id: string, succeeds: boolean) => Step;
  /** Throws the sandbox's own 404 for an unknown subscription. */
  readonly requireSubscription: (id: string) => { readonly id: string };
  /** Subscriptions whose period end the clock has passed. */
  readonly due: () => readonly string[];
  /** Whether the subscription waits for an unpaid renewal (a failed collection not yet recovered). */
  readonly pastDue: (id: string) => boolean;
  readonly eventsOf: (step: Step) => { webhooks: OutgoingWebhook[]; main: OutgoingWebhook };
  /** What the control answers about the step beyond its outcome (the invoice, the transaction). */
  readonly describe: (step: Step) => Readonly<Record<string, unknown>>;
  readonly deliverer: WebhookDeliverer;
  /** What the gateway tells ahead of a period end the clock has reached (Stripe's `trial_will_end`), each once. */
  readonly advanceNotices?: () => OutgoingWebhook[];
}) {
  const armed = new Set<string>();

  function succeeds(id: string, fail: boolean | undefined): boolean {
    const failing = fail ?? armed.has(id);
    armed.delete(id);
    return !failing;
  }

  return {
    /** The current period ends now; `fail` overrides an armed outcome. */
    async renewNow(id: string, fail?: boolean) {
      const step = deps.endPeriod(id, succeeds(id, fail));
      const { webhooks, main } = deps.eventsOf(step);
      return {
        ...(await deliverForControl(deps.deliverer, webhooks, main)),
        outcome: step.kind,
        subscription: step.subscription,
        ...deps.describe(step),
      };
    },
    armNextRenewal(id: string, outcome: "fail" | "succeed") {
      const subscription = deps.requireSubscription(id);
      if (outcome === "fail") armed.add(id);
      else armed.delete(id);
      return { subscription: subscription.id, next_renewal: outcome };
    },
    /** Every period end the clock has passed, in order, delivered in the background. */
    billDue(): number {
      const webhooks: OutgoingWebhook[] = [...(deps.advanceNotices?.() ?? [])];
      let steps = 0;
      for (let round = 0; round < MAX_PERIODS_PER_MOVE; round += 1) {
        const due = deps.due();
        if (due.length === 0) break;
        for (const id of due) {
          webhooks.push(...deps.eventsOf(deps.endPeriod(id, succeeds(id, undefined))).webhooks);
          steps += 1;
        }
      }
      deps.deliverer.deliverInOrder(webhooks);
      return steps;
    },
    /**
     * A new card was entered for a past-due subscription: its unpaid renewal is collected now, and
     * its events are delivered in the background. False when nothing was due.
     */
    recover(id: string): boolean {
      if (!deps.pastDue(id)) return false;
      armed.delete(id);
      deps.deliverer.deliverInOrder(deps.eventsOf(deps.endPeriod(id, true)).webhooks);
      return true;
    },
    clear: () => armed.clear(),
  };
}
