import { type Env, oneOf } from "../../kit/env-parsers.ts";

export interface PlanChangeSetting {
  readonly longer: "now" | "period_end";
  readonly shorter: "now" | "period_end";
}

const PLAN_CHANGE_TIMINGS = ["now", "period_end"] as const;

/** A move to a longer interval applies now with proration; one to a shorter interval at the period end. */
export function planChanges(env: Env, prefix: string): PlanChangeSetting {
  return {
    longer: oneOf(env, `${prefix}_PLAN_CHANGE_LONGER`, PLAN_CHANGE_TIMINGS, "now"),
    shorter: oneOf(env, `${prefix}_PLAN_CHANGE_SHORTER`, PLAN_CHANGE_TIMINGS, "period_end"),
  };
}
