import { PaddleError } from "./errors.ts";
import { addCycle, type Cycle, type PaddleSubscription, type Period } from "./model.ts";
import type { Proration } from "./transaction-model.ts";
import type { PricedLine } from "./transactions.ts";

export const PRORATION_MODES = [
  "prorated_immediately",
  "prorated_next_billing_period",
  "full_immediately",
  "full_next_billing_period",
  "do_not_bill",
] as const;
export type ProrationMode = (typeof PRORATION_MODES)[number];

/** Paddle changes a billing frequency only with these (since July 2024). */
const FREQUENCY_CHANGE_MODES: readonly ProrationMode[] = ["prorated_immediately", "full_immediately", "do_not_bill"];

/** Paddle refuses changes this close to the next billing. */
const LOCKED_BEFORE_BILLING_MS = 30 * 60_000;

export interface ItemsChange {
  readonly lines: readonly PricedLine[];
  readonly mode: ProrationMode;
  /** A new next billing date, sent with the items. */
  readonly next_billed_at: string | null;
}

/** One line of a change: a price, a quantity (negative for a credit), its amount and its proration. */
export interface ChangeLine {
  readonly line: PricedLine;
  readonly quantity: number;
  readonly amount: number;
  readonly proration: Proration | null;
}

/** What replacing a subscription's items at `now` does: the subscription after, and the lines billed at once. */
export interface ItemsReplacement {
  readonly subscription: PaddleSubscription;
  readonly lines: readonly ChangeLine[];
  /** The billing period the lines bill (the new one, after a frequency change). */
  readonly period: Period;
}

const sameCycle = (a: Cycle, b: Cycle) => a.interval === b.interval && a.frequency === b.frequency;

/**
 * Paddle's proration, to the minute: `prorated_immediately` credits the unused time of the old
 * items (negative lines) and charges the new ones for the rest of the period, or, when the billing
 * frequency changes, for a whole new period that starts now. `full_immediately` charges the new
 * items in full now without a credit. `do_not_bill` bills nothing. A new `next_billed_at` ends the
 * period there. The `*_next_billing_period` modes are refused for a frequency change, as at Paddle;
 * the sandbox does not carry charges to the next renewal, so it refuses them otherwise too.
 */
export function replaceItems(previous: PaddleSubscription, change: ItemsChange, now: Date): ItemsReplacement {
  if (previous.status === "canceled") {
    throw new PaddleError(
      400,
      "subscription_update_when_canceled",
      "cannot update subscription, as subscription is canceled",
    );
  }
  if (previous.status === "past_due") {
    throw new PaddleError(
      400,
      "subscription_locked_past_due",
      "cannot update the items of a subscription that is past due",
    );
  }
  const period = previous.current_billing_period;
  if (!period) throw PaddleError.invalidField("items", "the subscription has no billing period");
  const nextBilling = new Date(previous.next_billed_at ?? period.ends_at);
  if (nextBilling.getTime() - now.getTime() < LOCKED_BEFORE_BILLING_MS) {
    throw new PaddleError(
      400,
      "subscription_locked_renewal",
      "cannot update a subscription within 30 minutes of its next billing",
    );
  }
  if (
    change.next_billed_at !== null &&
    new Date(change.next_billed_at).getTime() - now.getTime() < LOCKED_BEFORE_BILLING_MS
  ) {
    throw new PaddleError(409, "subscription_next_billed_at_too_soon", "new next_billed_at needs to be 30m0s from now");
  }
  const cycles = change.lines.map((line) => line.price.billing_cycle);
  const cycle = cycles[0];
  if (!cycle || cycles.some((each) => !each || !sameCycle(each, cycle))) {
    throw PaddleError.invalidField("items", "every recurring item of a subscription must share one billing cycle");
  }
  const frequencyChange = !sameCycle(cycle, previous.billing_cycle);
  if (frequencyChange && !FREQUENCY_CHANGE_MODES.includes(change.mode)) {
    throw PaddleError.invalidField(
      "proration_billing_mode",
      `${change.mode} cannot be used when changing billing frequency; use prorated_immediately, full_immediately or do_not_bill`,
    );
  }
  if (change.mode === "prorated_next_billing_period" || change.mode === "full_next_billing_period") {
    throw PaddleError.invalidField("proration_billing_mode", `${change.mode} is not available in the sandbox`);
  }
  const at = now.toISOString();
  const start = new Date(period.starts_at).getTime();
  const end = new Date(period.ends_at).getTime();
  const minutes = (ms: number) => Math.floor(ms / 60_000);
  const unused = Math.min(1, Math.max(0, minutes(end - now.getTime()) / Math.max(1, minutes(end - start))));
  const rate = unused.toFixed(5);
  const rest = { starts_at: at, ends_at: period.ends_at };
  const billsNow = change.mode !== "do_not_bill";
  const newPeriod: Period =
    frequencyChange && billsNow ? { starts_at: at, ends_at: addCycle(now, cycle).toISOString() } : period;
  const nextEnd = change.next_billed_at ?? newPeriod.ends_at;
  const current = { starts_at: newPeriod.starts_at, ends_at: nextEnd };
  const credits: ChangeLine[] =
    change.mode === "prorated_immediately"
      ? previous.items.map((item) => ({
          line: { price: item.price, product: item.product, quantity: item.quantity },
          quantity: -item.quantity,
          amount: -Math.round(Number(item.price.unit_price.amount) * item.quantity * unused),
          proration: { rate, billing_period: rest },
        }))
      : [];
  const whole = frequencyChange || change.mode === "full_immediately";
  const charges: ChangeLine[] = billsNow
    ? change.lines.map((line) => {
        const full = Number(line.price.unit_price.amount) * line.quantity;
        return whole
          ? { line, quantity: line.quantity, amount: full, proration: null }
          : {
              line,
              quantity: line.quantity,
              amount: Math.round(full * unused),
              proration: { rate, billing_period: rest },
            };
      })
    : [];
  const subscription: PaddleSubscription = {
    ...previous,
    billing_cycle: cycle,
    current_billing_period: current,
    next_billed_at: nextEnd,
    updated_at: at,
    items: change.lines.map((line) => ({
      status: "active",
      quantity: line.quantity,
      recurring: true,
      created_at: at,
      updated_at: at,
      previously_billed_at: billsNow ? at : (previous.items[0]?.previously_billed_at ?? null),
      next_billed_at: nextEnd,
      trial_dates: null,
      price: line.price,
      product: line.product,
    })),
  };
  return { subscription, lines: [...credits, ...charges], period: current };
}
