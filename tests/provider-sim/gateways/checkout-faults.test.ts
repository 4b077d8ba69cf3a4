import { describe, expect, test } from "bun:test";
import { aSession, aTransaction } from "./flows.ts";
import { createGatewaySim, type GatewaySim } from "./harness.ts";

async function queueFault(sim: GatewaySim, fault: Record<string, unknown>) {
  expect((await sim.plain("POST", "/__sim/faults", { body: fault })).status).toBe(201);
}

describe("faults at the calls that open a checkout", () => {
  test("gateway_a's next transactions fail as told, and then it recovers", async () => {
    const sim = createGatewaySim();
    await queueFault(sim, { route: "gateway_a_transactions", mode: "error", status: 503, count: 1 });
    const failed = await sim.a("POST", "/transactions", { body: {} });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: "SIMULATED_ERROR" });
    expect((await aTransaction(sim)).id).toStartWith("txn_");
  });

  test("gateway_b's next sessions are rate limited with Retry-After, and other routes are left alone", async () => {
    const sim = createGatewaySim();
    const open = await aSession(sim);
    await queueFault(sim, { route: "gateway_b_checkout_sessions", mode: "rate_limit", retry_after_s: 3, count: 1 });
    expect((await sim.b("GET", `/checkout/sessions/${open.id}`)).status).toBe(200);
    const limited = await sim.b("POST", "/checkout/sessions", { mode: "payment" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect((await aSession(sim, { orderId: "ord_b2" })).id).toStartWith("cs_");
  });
});
