import { afterEach, describe, expect, test } from "bun:test";
import { aSession, aTransaction } from "./flows.ts";
import { A_KEY, B_KEY, createGatewaySim, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace> | undefined;
afterEach(() => marketplace?.stop());

describe("mounting the sandboxes", () => {
  test("a sandbox without both its key and its webhook secret is not mounted: its paths are 404", async () => {
    const sim = createGatewaySim({
      GATEWAY_A_SANDBOX_API_KEY: "",
      GATEWAY_A_SANDBOX_WEBHOOK_SECRET: "",
      GATEWAY_B_SANDBOX_WEBHOOK_SECRET: "",
    });
    expect(sim.gateways.mounted).toEqual([]);
    const paths = [
      ["GET", "/gateway_a/event-types", A_KEY],
      ["GET", "/gateway_b/v1/balance", B_KEY],
      ["GET", "/checkout/gateway_a/txn_x", undefined],
      ["POST", "/checkout/gateway_b/cs_x/pay", undefined],
      ["POST", "/__sim/gateway_a/subscriptions/sub_x/renew", undefined],
      ["POST", "/__sim/gateway_b/subscriptions/sub_x/cancel", undefined],
    ] as const;
    for (const [method, path, token] of paths) {
      expect((await sim.plain(method, path, token ? { token } : {})).status).toBe(404);
    }
  });

  test("one sandbox can be mounted without the other", async () => {
    const sim = createGatewaySim({ GATEWAY_A_SANDBOX_WEBHOOK_SECRET: "" });
    expect(sim.gateways.mounted).toEqual(["gateway_b"]);
    expect((await sim.a("GET", "/event-types")).status).toBe(404);
    expect((await sim.b("GET", "/balance")).status).toBe(200);
  });

  test("gateway controls are 404 without PROVIDER_SIM_CONTROL, while the sandboxes still serve", async () => {
    const sim = createGatewaySim({ PROVIDER_SIM_CONTROL: "false" });
    expect((await sim.plain("GET", "/__sim/gateway_events")).status).toBe(404);
    expect((await sim.plain("POST", "/__sim/gateway_b/subscriptions/sub_x/renew")).status).toBe(404);
    expect((await sim.b("GET", "/balance")).status).toBe(200);
  });
});

describe("POST /__sim/reset", () => {
  test("clears both sandboxes and the delivered events", async () => {
    marketplace = startMarketplace();
    const sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
    const product = (await sim.a("POST", "/products", { body: { name: "P", tax_category: "standard" } })).body.data;
    const transaction = await aTransaction(sim);
    const session = await aSession(sim);
    await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`);
    expect((await sim.plain("GET", "/__sim/gateway_events")).body.events).toHaveLength(1);

    expect((await sim.plain("POST", "/__sim/reset")).status).toBe(200);
    expect((await sim.a("GET", `/products/${product.id}`)).status).toBe(404);
    expect((await sim.a("GET", `/transactions/${transaction.id}`)).status).toBe(404);
    expect((await sim.b("GET", `/checkout/sessions/${session.id}`)).status).toBe(404);
    expect((await sim.plain("GET", `/checkout/gateway_b/${session.id}`)).status).toBe(404);
    expect((await sim.b("GET", "/balance")).body.available).toEqual([
      { amount: 0, currency: "usd", source_types: { card: 0 } },
    ]);
    expect((await sim.plain("GET", "/__sim/gateway_events")).body.events).toEqual([]);
  });
});
