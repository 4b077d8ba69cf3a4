import { expect, test } from "bun:test";
import { hasRealPostgres, useTestDatabase } from "../support/database.ts";
import { adminToken, createProduct, http, posProductFor, registerCustomer, useE2e } from "../support/e2e.ts";
import { failCheckoutSessions } from "../support/gateway-faults.ts";
import { useSecondInstance } from "../support/second-instance.ts";

const BREAKER = { GATEWAY_BREAKER_FAILURES: "2", GATEWAY_BREAKER_COOLDOWN_SECONDS: "2", GATEWAY_TIMEOUT_SECONDS: "1" };
const db = useTestDatabase();
const e2e = useE2e(db, { env: BREAKER });
/** A second marketplace on the same database, as behind a load balancer. */
const second = useSecondInstance(db, e2e, BREAKER);

async function checkoutAt(url: string, productId: string, gateway?: "gateway_a") {
  const customer = await registerCustomer(e2e);
  return http(url, "POST", "/api/checkout/create", {
    token: customer.token,
    body: { items: [{ product_id: productId, variant: "monthly" }], ...(gateway ? { payment_gateway: gateway } : {}) },
  });
}

/** How many times gateway_a was asked to open a checkout since recording began. */
async function transactionCallsAtGatewayA(): Promise<number> {
  const state = (await (await fetch(`${e2e.sim.url}/__sim/gateway_exchanges`)).json()) as {
    exchanges: { kind: string; gateway: string; method: string; path: string }[];
  };
  return state.exchanges.filter(
    (entry) =>
      entry.kind === "call" &&
      entry.gateway === "gateway_a" &&
      entry.method === "POST" &&
      entry.path.endsWith("/transactions"),
  ).length;
}

const breakerA = async () =>
  (await e2e.marketplace.listGatewayBreakers()).find((b) => b.gateway === "gateway_a" && b.environment === "sandbox");

test.skipIf(!hasRealPostgres)(
  "outages seen by either instance open gateway_a's breaker for both; while open neither calls it; after the cool-down one trial closes it",
  async () => {
    const product = await createProduct(e2e, posProductFor(e2e, { default_payment_gateway: "gateway_a" }));
    const [first, other] = [e2e.url, second.url as string];
    await failCheckoutSessions(e2e, "gateway_a", { mode: "error", status: 503, count: 2 });
    for (const url of [first, other]) {
      const opened = await checkoutAt(url, product.id);
      expect(opened.body).toMatchObject({
        payment_gateway: "gateway_b",
        failed_over: true,
        failed_over_from: "gateway_a",
      });
    }
    expect(await breakerA()).toMatchObject({ state: "open", consecutive_failures: 2 });

    await fetch(`${e2e.sim.url}/__sim/gateway_exchanges`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ recording: true, clear: true }),
    });
    for (const url of [first, other]) {
      const skipped = await checkoutAt(url, product.id);
      expect(skipped.body).toMatchObject({ payment_gateway: "gateway_b", failed_over: true });
    }
    const named = await checkoutAt(other, product.id, "gateway_a");
    expect(named.status).toBe(503);
    expect(named.body).toMatchObject({ code: "GATEWAY_UNAVAILABLE", alternatives: ["gateway_b"] });
    expect(Number(named.headers.get("retry-after"))).toBeWithin(1, 3);
    expect(await transactionCallsAtGatewayA()).toBe(0);

    const settings = await http(e2e.url, "GET", "/api/admin/gateway_a/settings", { token: await adminToken(e2e) });
    expect(settings.body.breakers).toContainEqual(
      expect.objectContaining({ environment: "sandbox", state: "open", consecutive_failures: 2 }),
    );

    await Bun.sleep(2100);
    expect((await breakerA())?.state).toBe("half_open");
    const back = await checkoutAt(other, product.id);
    expect(back.body).toMatchObject({ payment_gateway: "gateway_a", failed_over: false, failed_over_from: null });
    expect(await breakerA()).toMatchObject({ state: "closed", consecutive_failures: 0, opened_at: null });
    expect(await transactionCallsAtGatewayA()).toBe(1);
  },
  30_000,
);

test.skipIf(!hasRealPostgres)(
  "with both gateways' breakers open, a checkout is a 503 with Retry-After",
  async () => {
    const product = await createProduct(e2e, posProductFor(e2e, { default_payment_gateway: "gateway_a" }));
    await failCheckoutSessions(e2e, "gateway_a", { mode: "error", status: 500, count: 2 });
    await failCheckoutSessions(e2e, "gateway_b", { mode: "rate_limit", retry_after_s: 1, count: 2 });
    for (const url of [e2e.url, second.url as string]) expect((await checkoutAt(url, product.id)).status).toBe(502);
    const refused = await checkoutAt(e2e.url, product.id);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: "GATEWAY_UNAVAILABLE", gateway: "gateway_a", alternatives: [] });
    expect(Number(refused.headers.get("retry-after"))).toBeWithin(1, 3);
    await Bun.sleep(2100);
    const recovered = await checkoutAt(second.url as string, product.id);
    expect(recovered.body).toMatchObject({ payment_gateway: "gateway_a", failed_over: false });
  },
  30_000,
);
