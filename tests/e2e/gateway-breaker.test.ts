import { beforeAll, expect, test } from "bun:test";
import pino from "pino";
import { openDatabase } from "../../adapters/postgres/database.ts";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { createTestMarketplace } from "../support/app.ts";
import { hasRealPostgres, useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  createProduct,
  FAST_JOBS,
  http,
  posProductFor,
  registerCustomer,
  SANDBOX,
  useE2e,
} from "../support/e2e.ts";
import { failCheckoutSessions } from "../support/gateway-faults.ts";
import { SIM_TOKEN } from "../support/provider-sim.ts";

const BREAKER = { GATEWAY_BREAKER_FAILURES: "2", GATEWAY_BREAKER_COOLDOWN_SECONDS: "2", GATEWAY_TIMEOUT_SECONDS: "1" };
const db = useTestDatabase();
const e2e = useE2e(db, { env: BREAKER });
const second: { url?: string; close?: () => Promise<void> } = {};

// A second marketplace on the same database and the same sandboxes, as a second instance runs.
beforeAll(async () => {
  if (!hasRealPostgres) return;
  const pool = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 10 });
  const marketplace = createTestMarketplace(
    pool.sql,
    {},
    {
      env: {
        ...SANDBOX,
        ...FAST_JOBS,
        ...BREAKER,
        GATEWAY_A_SANDBOX_BASE_URL: `${e2e.sim.url}/gateway_a`,
        GATEWAY_B_SANDBOX_BASE_URL: `${e2e.sim.url}/gateway_b`,
        SECRET_SIM_TOKEN: SIM_TOKEN,
        PUBLIC_BASE_URL: e2e.url,
      },
      logger: pino({ level: "silent" }),
    },
  );
  const port = await freePort();
  const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: marketplace.app.fetch });
  second.url = `http://127.0.0.1:${port}`;
  second.close = async () => {
    server.stop(true);
    await marketplace.close();
    await pool.close(1);
  };
});
db.onTeardown(() => second.close?.());

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
