import { Elysia } from "elysia";
import { problem, problemResponse } from "../kit/problem.ts";
import type { Fault, FaultQueue, FaultRoute } from "./faults.ts";

const NOT_JSON = '{"external_reference_id": "ref_';

/** The answer a fault stands in for; undefined lets the route handle the call after all (delay). */
async function faultResponse(fault: Fault, faults: FaultQueue): Promise<Response | undefined> {
  switch (fault.mode) {
    case "error":
      return problemResponse(
        problem(fault.status ?? 500, "SIMULATED_ERROR", "The simulator was told to fail this call."),
      );
    case "rate_limit":
      return problemResponse(problem(429, "RATE_LIMITED", "Too many requests; retry after the Retry-After seconds."), {
        "retry-after": String(fault.retry_after_s ?? 1),
      });
    case "delay":
      await Bun.sleep(fault.delay_ms ?? 0);
      return undefined;
    case "hang":
      await faults.hang();
      return problemResponse(problem(503, "SIMULATOR_RESET", "The simulator was reset while this call hung."));
    case "garbage":
      return new Response(NOT_JSON, { status: 200, headers: { "content-type": "application/json" } });
  }
}

/**
 * The `fault` macro: `{ fault: "onboard" }` on a route lets `/__sim/faults` replace its next calls.
 * It runs before the handler and after the auth check, so a fault never changes state.
 */
export function createFaultInjection(deps: { readonly faults: FaultQueue }) {
  return new Elysia().macro({
    fault: (route: FaultRoute) => ({
      async beforeHandle({ set }) {
        const fault = deps.faults.take(route);
        const response = fault ? await faultResponse(fault, deps.faults) : undefined;
        // The access log reads `set.status`; without this a simulated 429 would be logged as 200.
        if (response) set.status = response.status;
        return response;
      },
    }),
  });
}
