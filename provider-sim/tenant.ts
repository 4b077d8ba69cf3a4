import type { components } from "../openapi/generated/provider.ts";
import { tenantCancelled } from "./errors.ts";
import type { TenantIdentifiers } from "./identifiers.ts";
import type { BillingInterval } from "./plans.ts";

type Schemas = components["schemas"];
export type TenantStatus = Schemas["TenantStatus"];
export type Customer = Schemas["Customer"];
export type OnboardRequest = Schemas["OnboardRequest"];

export const TENANT_STATUSES = [
  "trialing",
  "active",
  "suspended",
  "cancelled",
  "expired",
] as const satisfies readonly TenantStatus[];

export interface TenantRecord {
  readonly ids: TenantIdentifiers;
  readonly order_id: string;
  readonly order_item_id: string;
  readonly product_ref: string;
  readonly plan: string;
  readonly billing_interval: BillingInterval;
  readonly trial_days: number | null;
  readonly customer: Customer;
  readonly status: TenantStatus;
  readonly trial_ends_at: Date | null;
  readonly current_period_end: Date | null;
  /** Periods are counted from here, so a period that starts on the 31st does not drift. */
  readonly period_anchor: Date;
  readonly cancelled_at: Date | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

const DAY_MS = 86_400_000;

/** `count` billing intervals after `anchor`, clamping to the month's last day (Jan 31 + 1 month = Feb 28). */
export function addIntervals(anchor: Date, interval: BillingInterval, count: number): Date {
  const months = anchor.getUTCMonth() + count * (interval === "yearly" ? 12 : 1);
  const year = anchor.getUTCFullYear() + Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(anchor);
  result.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return result;
}

export function newTenant(
  input: OnboardRequest,
  ids: TenantIdentifiers,
  interval: BillingInterval,
  now: Date,
): TenantRecord {
  const trialEnd = input.trial_days ? new Date(now.getTime() + input.trial_days * DAY_MS) : null;
  return {
    ids,
    order_id: input.order_id,
    order_item_id: input.order_item_id,
    product_ref: input.product_ref,
    plan: input.plan,
    billing_interval: interval,
    trial_days: input.trial_days ?? null,
    customer: { id: input.customer.id, email: input.customer.email, name: input.customer.name },
    status: trialEnd ? "trialing" : "active",
    trial_ends_at: trialEnd,
    current_period_end: trialEnd ?? addIntervals(now, interval, 1),
    period_anchor: trialEnd ?? now,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Whether a repeated onboarding asks for exactly what the first one created. */
export function isSameOnboarding(record: TenantRecord, input: OnboardRequest, interval: BillingInterval): boolean {
  return (
    record.plan === input.plan &&
    record.billing_interval === interval &&
    record.trial_days === (input.trial_days ?? null) &&
    record.product_ref === input.product_ref &&
    record.customer.id === input.customer.id &&
    record.customer.email === input.customer.email &&
    record.customer.name === input.customer.name
  );
}

export function suspended(record: TenantRecord, now: Date): TenantRecord {
  if (record.status === "cancelled") throw tenantCancelled();
  if (record.status === "suspended") return record;
  return { ...record, status: "suspended", updated_at: now };
}

export function cancelled(record: TenantRecord, now: Date): TenantRecord {
  if (record.status === "cancelled") return record;
  return { ...record, status: "cancelled", cancelled_at: now, updated_at: now };
}

/**
 * A new plan; a tenant that is not active starts a fresh paid period now, and so does one moved to
 * another billing interval, unless it is paid until a given end (its periods then roll on from it).
 */
export function upgraded(
  record: TenantRecord,
  plan: string,
  now: Date,
  interval?: BillingInterval,
  paidUntil?: Date,
): TenantRecord {
  if (record.status === "cancelled") throw tenantCancelled();
  const billing_interval = interval ?? record.billing_interval;
  if (record.status === "active" && billing_interval === record.billing_interval) {
    return record.plan === plan ? record : { ...record, plan, updated_at: now };
  }
  return {
    ...record,
    plan,
    billing_interval,
    status: "active",
    current_period_end: paidUntil && paidUntil > now ? paidUntil : addIntervals(now, billing_interval, 1),
    period_anchor: paidUntil && paidUntil > now ? paidUntil : now,
    updated_at: now,
  };
}

/** What time alone does to a tenant: trials run out, active periods roll forward (the marketplace bills). */
export function advancedTo(record: TenantRecord, now: Date): TenantRecord {
  const { status, trial_ends_at, current_period_end } = record;
  if (status === "trialing" && trial_ends_at && trial_ends_at <= now) {
    return { ...record, status: "expired", updated_at: now };
  }
  if (status === "active" && current_period_end && current_period_end <= now) {
    let periods = 1;
    while (addIntervals(record.period_anchor, record.billing_interval, periods) <= now) periods += 1;
    return {
      ...record,
      current_period_end: addIntervals(record.period_anchor, record.billing_interval, periods),
      updated_at: now,
    };
  }
  return record;
}
