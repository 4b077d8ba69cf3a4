import { describe, expect, test } from "bun:test";
import { runTick } from "../../provider-sim/tick.ts";
import { createTestSim, DAY_SECONDS, type Tenant } from "./harness.ts";

async function statusOf(sim: ReturnType<typeof createTestSim>, reference: string): Promise<Tenant> {
  return (await sim.call<Tenant>("GET", `/api/marketplace/status/${reference}`)).body;
}

describe("the minute tick", () => {
  test("a 1-day trial is still trialing a minute before its end and expired a minute after", async () => {
    const sim = createTestSim();
    const { external_reference_id } = (await sim.onboard({ trial_days: 1 })).body;
    sim.clock.advance(DAY_SECONDS - 60);
    expect(runTick(sim.store, sim.clock.now())).toBe(0);
    expect((await statusOf(sim, external_reference_id)).status).toBe("trialing");
    sim.clock.advance(120);
    expect((await statusOf(sim, external_reference_id)).status).toBe("trialing");
    expect(runTick(sim.store, sim.clock.now())).toBe(1);
    expect((await statusOf(sim, external_reference_id)).status).toBe("expired");
  });

  test("POST /__sim/clock moves time and ticks at once", async () => {
    const sim = createTestSim();
    const { external_reference_id } = (await sim.onboard({ trial_days: 1 })).body;
    const early = await sim.call("POST", "/__sim/clock", { body: { advance_seconds: DAY_SECONDS - 60 } });
    expect(early.body).toEqual({ now: "2026-02-01T09:59:00.000Z" });
    expect((await statusOf(sim, external_reference_id)).status).toBe("trialing");
    await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 120 } });
    const expired = await statusOf(sim, external_reference_id);
    expect(expired).toMatchObject({ status: "expired", trial_ends_at: "2026-02-01T10:00:00.000Z" });
    const view = await sim.call("GET", `/api/marketplace/admin/tenants/${expired.external_tenant_id}/status`);
    expect(view.body.updated_at).toBe("2026-02-01T10:01:00.000Z");
  });

  test("an expired trial can be reactivated by upgrade", async () => {
    const sim = createTestSim();
    const { external_reference_id } = (await sim.onboard({ trial_days: 1 })).body;
    await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 2 * DAY_SECONDS } });
    const upgraded = await sim.call("POST", "/api/marketplace/upgrade", {
      body: { external_reference_id, plan: "pro" },
    });
    expect(upgraded.body).toMatchObject({
      status: "active",
      plan: "pro",
      current_period_end: "2026-03-02T10:00:00.000Z",
    });
  });

  test("an active tenant's period rolls forward by its interval, month ends clamped without drift", async () => {
    const sim = createTestSim();
    const { external_reference_id } = (await sim.onboard()).body;
    expect((await statusOf(sim, external_reference_id)).current_period_end).toBe("2026-02-28T10:00:00.000Z");
    await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 28 * DAY_SECONDS } });
    expect(await statusOf(sim, external_reference_id)).toMatchObject({
      status: "active",
      current_period_end: "2026-03-31T10:00:00.000Z",
    });
    await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 60 * DAY_SECONDS } });
    expect((await statusOf(sim, external_reference_id)).current_period_end).toBe("2026-04-30T10:00:00.000Z");
  });

  test("a yearly period rolls by a year; suspended and cancelled tenants do not roll", async () => {
    const sim = createTestSim();
    const yearly = (await sim.onboard({ billing_interval: "yearly" })).body;
    const paused = (await sim.onboard({ order_item_id: "item_2" })).body;
    const ended = (await sim.onboard({ order_item_id: "item_3" })).body;
    await sim.call("POST", "/api/marketplace/suspend", {
      body: { external_reference_id: paused.external_reference_id },
    });
    await sim.call("POST", "/api/marketplace/cancel", { body: { external_reference_id: ended.external_reference_id } });
    await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 366 * DAY_SECONDS } });
    expect((await statusOf(sim, yearly.external_reference_id)).current_period_end).toBe("2028-01-31T10:00:00.000Z");
    expect(await statusOf(sim, paused.external_reference_id)).toMatchObject({
      status: "suspended",
      current_period_end: paused.current_period_end,
    });
    expect(await statusOf(sim, ended.external_reference_id)).toMatchObject({
      status: "cancelled",
      current_period_end: ended.current_period_end,
    });
  });
});
