import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../../support/http.ts";
import { createTestSim, START } from "../harness.ts";

describe("/__sim controls", () => {
  test("are 404 when PROVIDER_SIM_CONTROL is not true", async () => {
    const sim = createTestSim({ PROVIDER_SIM_CONTROL: "false" });
    expectProblemShape(await sim.call("GET", "/__sim"), 404, "ROUTE_NOT_FOUND");
    for (const path of ["/__sim/faults", "/__sim/clock", "/__sim/reset"]) {
      expectProblemShape(await sim.call("POST", path, { body: {} }), 404, "ROUTE_NOT_FOUND");
    }
  });

  test("GET /__sim says controls are on and what time the simulator thinks it is, without auth", async () => {
    const response = await createTestSim().call("GET", "/__sim", { token: undefined });
    expect(response).toMatchObject({ status: 200, body: { controls: true, now: START.toISOString() } });
  });

  test("reset clears tenants, faults and the clock offset", async () => {
    const sim = createTestSim();
    const tenant = (await sim.onboard()).body;
    await sim.call("POST", "/__sim/faults", { body: { route: "status", mode: "error", count: 5 } });
    await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 3600 } });
    const reset = await sim.call("POST", "/__sim/reset", { token: undefined });
    expect(reset).toMatchObject({ status: 200, body: { reset: true, now: START.toISOString() } });
    const status = await sim.call("GET", `/api/marketplace/status/${tenant.external_reference_id}`);
    expectProblemShape(status, 404, "TENANT_NOT_FOUND");
    expect((await sim.call("GET", "/__sim")).body.now).toBe(START.toISOString());
    expect((await sim.onboard()).status).toBe(201);
  });

  test("bad control bodies are 422, malformed ones 400", async () => {
    const sim = createTestSim();
    const invalid = [
      ["/__sim/faults", { route: "everything", mode: "error", count: 1 }],
      ["/__sim/faults", { route: "onboard", mode: "explode", count: 1 }],
      ["/__sim/faults", { route: "onboard", mode: "error", count: 0 }],
      ["/__sim/faults", { route: "onboard", mode: "error", count: 1, status: 200 }],
      ["/__sim/faults", { route: "onboard", mode: "error", count: 1, extra: true }],
      ["/__sim/clock", { advance_seconds: -1 }],
      ["/__sim/clock", {}],
    ] as const;
    for (const [path, body] of invalid) {
      expectProblemShape(await sim.call("POST", path, { body }), 422, "VALIDATION_FAILED");
    }
    const malformed = await sim.call("POST", "/__sim/clock", {
      rawBody: "{advance",
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(malformed, 400, "MALFORMED_JSON");
  });
});
