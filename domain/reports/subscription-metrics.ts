import type { BillingInterval } from "../catalog/pricing.ts";
import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { parseDay } from "./report-range.ts";
import type { GatewayEnvironment } from "./revenue.ts";

export type SubscriptionState = "trialing" | "active" | "past_due" | "suspended" | "cancelled";

/** New and churned MRR are counted over this many days before `at`. */
export const CHURN_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * A subscription as its record stands now. The record keeps its current status only, with the
 * times it was created, last changed, cancelled and its trial ends: what a past status can be
 * read from.
 */
export interface SubscriptionFacts {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly status: SubscriptionState;
  readonly billing_interval: BillingInterval;
  /** What one period at `billing_interval` costs, before discounts and tax. */
  readonly price: number;
  readonly created_at: Date;
  readonly updated_at: Date;
  readonly cancelled_at: Date | null;
  readonly trial_ends_at: Date | null;
}

/**
 * A subscription's status at `at`: null before it existed; exact when cancelled by then or when its
 * record has not changed since (it read then as it reads now); otherwise inferred from its trial
 * (trialing until the trial ends, else active), since a past `past_due` or `suspended` spell that
 * is over left no trace in the record.
 */
export function statusAt(
  facts: SubscriptionFacts,
  at: Date,
): { readonly status: SubscriptionState; readonly inferred: boolean } | null {
  if (facts.created_at > at) return null;
  if (facts.cancelled_at !== null && facts.cancelled_at <= at) return { status: "cancelled", inferred: false };
  if (facts.updated_at <= at) return { status: facts.status, inferred: false };
  if (facts.trial_ends_at !== null && facts.trial_ends_at > at) return { status: "trialing", inferred: true };
  return { status: "active", inferred: true };
}

/** Paying subscriptions: active ones and those whose renewal the gateway is still collecting. */
const paying = (status: SubscriptionState | undefined) => status === "active" || status === "past_due";

/**
 * Monthly recurring revenue of some subscriptions, in minor units: monthly prices added, yearly
 * ones added and then divided by 12 once (rounded half up), so no cent is lost per subscription.
 */
export function monthlyRevenue(
  subscriptions: readonly Pick<SubscriptionFacts, "billing_interval" | "price">[],
): number {
  let monthly = 0;
  let yearly = 0;
  for (const subscription of subscriptions) {
    if (subscription.billing_interval === "monthly") monthly += subscription.price;
    else yearly += subscription.price;
  }
  return monthly + Math.floor((yearly + 6) / 12);
}

export interface CurrencyMrr {
  readonly currency: string;
  readonly mrr: number;
  /** Subscriptions paying at `at` that did not pay `CHURN_WINDOW_DAYS` before. */
  readonly new_mrr: number;
  /** Subscriptions paying `CHURN_WINDOW_DAYS` before `at` and cancelled by `at`. */
  readonly churned_mrr: number;
}

export interface SubscriptionMetrics {
  readonly environment: GatewayEnvironment;
  readonly counts: Readonly<Record<SubscriptionState, number>>;
  /** How many of the counted statuses were inferred rather than read (see `statusAt`). */
  readonly inferred: number;
  readonly mrr: readonly CurrencyMrr[];
}

function metricsOf(environment: GatewayEnvironment, subscriptions: readonly SubscriptionFacts[], at: Date) {
  const since = new Date(at.getTime() - CHURN_WINDOW_DAYS * DAY_MS);
  const counts: Record<SubscriptionState, number> = { trialing: 0, active: 0, past_due: 0, suspended: 0, cancelled: 0 };
  let inferred = 0;
  const byCurrency = new Map<
    string,
    { now: SubscriptionFacts[]; added: SubscriptionFacts[]; churned: SubscriptionFacts[] }
  >();
  for (const subscription of subscriptions) {
    const now = statusAt(subscription, at);
    if (!now) continue;
    counts[now.status] += 1;
    if (now.inferred) inferred += 1;
    const before = statusAt(subscription, since)?.status;
    const sums = byCurrency.get(subscription.currency) ?? { now: [], added: [], churned: [] };
    byCurrency.set(subscription.currency, sums);
    if (paying(now.status)) sums.now.push(subscription);
    if (paying(now.status) && !paying(before)) sums.added.push(subscription);
    if (paying(before) && now.status === "cancelled") sums.churned.push(subscription);
  }
  const mrr = [...byCurrency]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sums]) => ({
      currency,
      mrr: monthlyRevenue(sums.now),
      new_mrr: monthlyRevenue(sums.added),
      churned_mrr: monthlyRevenue(sums.churned),
    }));
  return { environment, counts, inferred, mrr };
}

/** Subscription counts and MRR at `at`, per environment (live first): sandbox money is never added to live. */
export function subscriptionMetrics(subscriptions: readonly SubscriptionFacts[], at: Date): SubscriptionMetrics[] {
  const environments: GatewayEnvironment[] = ["live", "sandbox"];
  return environments
    .map((environment) =>
      metricsOf(
        environment,
        subscriptions.filter((s) => s.environment === environment),
        at,
      ),
    )
    .filter((metrics) => Object.values(metrics.counts).some((count) => count > 0));
}

/** The moment a subscriptions report is read at: an ISO date-time or date, not after `now`; default `now`. */
export function reportMoment(text: string | undefined, now: Date): Date {
  if (text === undefined) return now;
  const errors: FieldError[] = [];
  const written = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text);
  const at = new Date(text);
  if (!written || parseDay(text.slice(0, 10)) === null || Number.isNaN(at.getTime())) {
    errors.push({
      path: "/at",
      code: "INVALID_DATE",
      message: "must be a date (YYYY-MM-DD) or an ISO 8601 date-time with its offset",
    });
  } else if (at > now) {
    errors.push({ path: "/at", code: "IN_THE_FUTURE", message: "must not be in the future" });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return at;
}
