import type { BillingInterval } from "../catalog/pricing.ts";
import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { parseDay } from "./report-range.ts";
import type { GatewayEnvironment } from "./revenue-figures.ts";

export type SubscriptionState = "trialing" | "active" | "past_due" | "suspended" | "cancelled";

/** New and churned MRR are counted over this many days before `at`. */
export const CHURN_WINDOW_DAYS = 30;

/**
 * Subscriptions of one environment and currency alike at `at`, counted and their prices summed. A
 * past status is read from the record where that is honest and inferred otherwise: none before
 * `created_at`; `cancelled` from `cancelled_at`; the current status when the record has not changed
 * since (it read then as it reads now); else trialing while its trial ran, else active, since a past
 * `past_due` or `suspended` spell that is over left no trace in the record.
 */
export interface SubscriptionGroup {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  /** Their status at `at`. */
  readonly status: SubscriptionState;
  /** Whether that status was inferred rather than read. */
  readonly inferred: boolean;
  /** Whether they were paying `CHURN_WINDOW_DAYS` before `at`, by the same reading. */
  readonly paid_before: boolean;
  readonly billing_interval: BillingInterval;
  readonly subscriptions: number;
  /** What one period at `billing_interval` costs them all, before discounts and tax. */
  readonly price: number;
}

/** Paying subscriptions: active ones and those whose renewal the gateway is still collecting. */
const paying = (status: SubscriptionState | undefined) => status === "active" || status === "past_due";

/**
 * Monthly recurring revenue of some subscriptions, in minor units: monthly prices added, yearly
 * ones added and then divided by 12 once (rounded half up), so no cent is lost per subscription.
 */
export function monthlyRevenue(
  subscriptions: readonly Pick<SubscriptionGroup, "billing_interval" | "price">[],
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

function metricsOf(environment: GatewayEnvironment, groups: readonly SubscriptionGroup[]): SubscriptionMetrics {
  const counts: Record<SubscriptionState, number> = { trialing: 0, active: 0, past_due: 0, suspended: 0, cancelled: 0 };
  let inferred = 0;
  const byCurrency = new Map<
    string,
    { now: SubscriptionGroup[]; added: SubscriptionGroup[]; churned: SubscriptionGroup[] }
  >();
  for (const group of groups) {
    counts[group.status] += group.subscriptions;
    if (group.inferred) inferred += group.subscriptions;
    const sums = byCurrency.get(group.currency) ?? { now: [], added: [], churned: [] };
    byCurrency.set(group.currency, sums);
    if (paying(group.status)) sums.now.push(group);
    if (paying(group.status) && !group.paid_before) sums.added.push(group);
    if (group.paid_before && group.status === "cancelled") sums.churned.push(group);
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
export function subscriptionMetrics(groups: readonly SubscriptionGroup[]): SubscriptionMetrics[] {
  const environments: GatewayEnvironment[] = ["live", "sandbox"];
  return environments
    .map((environment) =>
      metricsOf(
        environment,
        groups.filter((group) => group.environment === environment),
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
