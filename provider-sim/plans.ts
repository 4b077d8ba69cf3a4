import type { components } from "../openapi/generated/provider.ts";
import { unknownPlan, unsupportedBillingInterval } from "./errors.ts";

export type Plan = components["schemas"]["Plan"];
export type BillingInterval = components["schemas"]["BillingInterval"];

export const BILLING_INTERVALS = ["monthly", "yearly"] as const satisfies readonly BillingInterval[];

export const DEFAULT_PLANS: readonly Plan[] = [
  { id: "standard", name: "Standard", billing_intervals: ["monthly", "yearly"] },
  { id: "pro", name: "Pro", billing_intervals: ["monthly", "yearly"] },
  { id: "enterprise", name: "Enterprise", billing_intervals: ["yearly"] },
];

function isPlan(value: unknown): value is Plan {
  if (typeof value !== "object" || value === null) return false;
  const { id, name, billing_intervals } = value as Record<string, unknown>;
  return (
    typeof id === "string" &&
    /^\S{1,100}$/.test(id) &&
    typeof name === "string" &&
    name.length > 0 &&
    Array.isArray(billing_intervals) &&
    billing_intervals.length > 0 &&
    new Set(billing_intervals).size === billing_intervals.length &&
    billing_intervals.every((interval) => (BILLING_INTERVALS as readonly unknown[]).includes(interval))
  );
}

/** A plan catalog from JSON, or undefined when it is not a non-empty array of valid plans with unique ids. */
export function parsePlans(json: string): Plan[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every(isPlan)) return undefined;
  if (new Set(value.map((plan) => plan.id)).size !== value.length) return undefined;
  return value.map(({ id, name, billing_intervals }) => ({ id, name, billing_intervals: [...billing_intervals] }));
}

/**
 * The plan and the interval a tenant is billed by. Without a requested interval a plan bills
 * monthly, or by its first interval when it offers no monthly billing.
 */
export function resolvePlan(
  plans: readonly Plan[],
  planId: string,
  interval: BillingInterval | undefined,
  intervalPath: "/billing_interval" | "/plan",
): { plan: Plan; interval: BillingInterval } {
  const plan = plans.find((candidate) => candidate.id === planId);
  if (!plan) throw unknownPlan(planId);
  const offered = plan.billing_intervals;
  const chosen = interval ?? (offered.includes("monthly") ? "monthly" : offered[0]);
  if (chosen === undefined || !offered.includes(chosen)) {
    throw unsupportedBillingInterval(planId, chosen ?? "monthly", intervalPath);
  }
  return { plan, interval: chosen };
}
