import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../support/http.ts";
import { anOnboardRequest, createTestSim, TOKEN } from "./harness.ts";

type Sim = ReturnType<typeof createTestSim>;

async function queueFault(sim: Sim, fault: Record<string, unknown>) {
  const response = await sim.call("POST", "/__sim/faults", { token: undefined, body: fault });
  expect(response.status).toBe(201);
}

const onboardRequest = () =>
  new Request("http://localhost/api/marketplace/onboard", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(anOnboardRequest()),
  });

describe("faults", () => {
  test("error answers the given status for the next `count` calls and changes nothing", async () => {
    const sim = createTestSim();
    await queueFault(sim, { route: "onboard", mode: "error", count: 2, status: 503 });
    expectProblemShape(await sim.onboard(), 503, "SIMULATED_ERROR");
    expectProblemShape(await sim.onboard(), 503, "SIMULATED_ERROR");
    expect(sim.store.all()).toHaveLength(0);
    expect((await sim.onboard()).status).toBe(201);
  });

  test("error defaults to 500, and faults for one route leave the others alone", async () => {
    const sim = createTestSim();
    const tenant = (await sim.onboard()).body;
    await queueFault(sim, { route: "suspend", mode: "error", count: 1 });
    expect((await sim.call("GET", `/api/marketplace/status/${tenant.external_reference_id}`)).status).toBe(200);
    const suspend = await sim.call("POST", "/api/marketplace/suspend", {
      body: { external_reference_id: tenant.external_reference_id },
    });
    expectProblemShape(suspend, 500, "SIMULATED_ERROR");
    expect((await sim.call("GET", "/api/marketplace/admin/overview")).body.tenants_by_status.active).toBe(1);
  });

  test("status faults cover both status forms", async () => {
    const sim = createTestSim();
    const { external_reference_id } = (await sim.onboard()).body;
    await queueFault(sim, { route: "status", mode: "error", count: 2, status: 502 });
    expectProblemShape(
      await sim.call("GET", `/api/marketplace/status/${external_reference_id}`),
      502,
      "SIMULATED_ERROR",
    );
    const byBody = await sim.call("POST", "/api/marketplace/status", { body: { external_reference_id } });
    expectProblemShape(byBody, 502, "SIMULATED_ERROR");
  });

  test("rate_limit is a 429 with Retry-After", async () => {
    const sim = createTestSim();
    await queueFault(sim, { route: "admin_plans", mode: "rate_limit", count: 1, retry_after_s: 7 });
    const limited = await sim.call("GET", "/api/marketplace/admin/plans");
    expectProblemShape(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("retry-after")).toBe("7");
    await queueFault(sim, { route: "admin_plans", mode: "rate_limit", count: 1 });
    expect((await sim.call("GET", "/api/marketplace/admin/plans")).headers.get("retry-after")).toBe("1");
  });

  test("delay answers normally after the delay", async () => {
    const sim = createTestSim();
    await queueFault(sim, { route: "onboard", mode: "delay", count: 1, delay_ms: 150 });
    const started = performance.now();
    const response = await sim.onboard();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(201);
  });

  test("garbage is a 200 application/json body that is not JSON", async () => {
    const sim = createTestSim();
    await queueFault(sim, { route: "admin_overview", mode: "garbage", count: 1 });
    const response = await sim.app.handle(
      new Request("http://localhost/api/marketplace/admin/overview", { headers: { authorization: `Bearer ${TOKEN}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  test("hang never answers until reset, and other calls are served meanwhile", async () => {
    const sim = createTestSim();
    await queueFault(sim, { route: "onboard", mode: "hang", count: 1 });
    const hung = sim.app.handle(onboardRequest());
    const pending = Symbol("pending");
    expect(await Promise.race([hung, Bun.sleep(200).then(() => pending)])).toBe(pending);
    expect((await sim.call("GET", "/api/marketplace/admin/plans")).status).toBe(200);
    expect((await sim.onboard()).status).toBe(201);
    await sim.call("POST", "/__sim/reset");
    const released = await hung;
    expect(released.status).toBe(503);
    expect(sim.store.all()).toHaveLength(0);
  });

  test("faults apply only after auth: an anonymous call is a 401 and does not use the fault up", async () => {
    const sim = createTestSim();
    await queueFault(sim, { route: "onboard", mode: "error", count: 1, status: 500 });
    expectProblemShape(await sim.call("POST", "/api/marketplace/onboard", { token: undefined }), 401, "UNAUTHORIZED");
    expectProblemShape(await sim.onboard(), 500, "SIMULATED_ERROR");
  });
});
