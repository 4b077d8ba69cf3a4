import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { createTestMarketplace } from "../support/app.ts";
import { tokenFor } from "../support/auth.ts";
import { aPointOfSaleProduct } from "../support/builders/products.ts";
import { countingListener } from "../support/counting-listener.ts";
import { useTestDatabase } from "../support/database.ts";
import { eventually, FAST_JOBS, fulfillmentReaches, SANDBOX } from "../support/e2e.ts";
import { call, expectProblemShape } from "../support/http.ts";
import type { RunningService } from "../support/process.ts";
import { SIM_TOKEN, startProviderSim } from "../support/provider-sim.ts";

/**
 * URLs saved while private addresses were allowed (or written straight into the
 * database) are checked again at every call. A marketplace with the guard on refuses to connect to
 * them, and the loopback listener they point at never sees a connection.
 */
const db = useTestDatabase();

const trap = countingListener(() => Response.json({ error: "a trap" }, { status: 500 }));

let sim: RunningService;
let open: ReturnType<typeof createTestMarketplace>;
let guarded: ReturnType<typeof createTestMarketplace>;
let server: ReturnType<typeof Bun.serve>;
let admin = "";
let productId = "";

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  sim = await startProviderSim({ ...SANDBOX, PROVIDER_SIM_MARKETPLACE_URL: url });
  const env = { ...SANDBOX, ...FAST_JOBS, SECRET_SIM_TOKEN: SIM_TOKEN, PUBLIC_BASE_URL: url };
  // Saves the product and makes the checkout, as an instance that still allowed private addresses.
  open = createTestMarketplace(
    db.current.sql,
    {},
    {
      env: { ...env, GATEWAY_A_SANDBOX_BASE_URL: `${sim.url}/gateway_a` },
    },
  );
  // Receives the payment webhook and runs the fulfillment; its gateways point at the trap too.
  guarded = createTestMarketplace(
    db.current.sql,
    {},
    {
      env: {
        ...env,
        ALLOW_PRIVATE_PROVIDER_URLS: "false",
        GATEWAY_A_SANDBOX_BASE_URL: `${trap.url}/gateway_a`,
        GATEWAY_B_SANDBOX_BASE_URL: `http://localhost:${trap.port}/gateway_b`,
      },
    },
  );
  server = Bun.serve({ port, hostname: "127.0.0.1", fetch: guarded.app.fetch });
  guarded.worker.start();
  admin = await tokenFor("admin");
  const base = aPointOfSaleProduct();
  const created = await call(open.app, "POST", "/api/admin/products", {
    token: admin,
    body: aPointOfSaleProduct({
      supports_trial: false,
      trial_days: null,
      fulfillment_config: {
        ...base.fulfillment_config,
        base_url: trap.url,
        credentials_ref: "sim_token",
        management: { enabled: true, base_url: trap.url },
      },
    }),
  });
  expect(created.status).toBe(201);
  productId = created.body.id;
}, 30_000);

afterAll(async () => {
  await guarded.worker.stop({ timeoutMs: 2000 });
  server.stop(true);
  await guarded.close();
  await open.close();
  await sim.stop();
  trap.server.stop(true);
});

describe("a stored loopback URL with ALLOW_PRIVATE_PROVIDER_URLS=false", () => {
  test("the provider management read is refused with 422 URL_NOT_ALLOWED and never connects", async () => {
    const overview = `/api/admin/products/${productId}/provider/overview`;
    const refused = await call(guarded.app, "GET", overview, { token: admin });
    expectProblemShape(refused, 422, "URL_NOT_ALLOWED");
    expect(refused.body.detail).toContain("127.0.0.1 is not a public address (loopback)");
    expect(trap.hits).toEqual([]);
    // The same read from the instance that allows private addresses does reach the listener.
    await call(open.app, "GET", overview, { token: admin });
    expect(trap.hits).toHaveLength(1);
    trap.hits.length = 0;
  });

  test("a paid order's fulfillment fails on its first attempt, naming the refusal, without a connection", async () => {
    const registered = await call(open.app, "POST", "/api/auth/register", {
      body: { email: `buyer-${crypto.randomUUID()}@example.com`, password: "buyer password", name: "Buyer" },
    });
    const checkout = await call(open.app, "POST", "/api/checkout/create", {
      token: registered.body.token,
      // gateway_a: a Paddle transaction is its own payment id. A Stripe subscription's first payment
      // would be looked up at the gateway, which this marketplace (pointed at the trap) must not call.
      body: { items: [{ product_id: productId, variant: "monthly" }], payment_gateway: "gateway_a" },
    });
    expect(checkout.status).toBe(201);
    const paid = await fetch(`${sim.url}/checkout/gateway_a/${checkout.body.checkout.session_id}/pay`, {
      method: "POST",
    });
    expect(await paid.json()).toMatchObject({ delivered: true, status: 200 });

    const record = await fulfillmentReaches(db, checkout.body.order_id, "failed", 10_000);
    expect(record.attempts).toBe(1);
    expect(record.last_error).toBe(
      "The provider is at an address the marketplace does not call: 127.0.0.1 is not a public address (loopback).",
    );
    // The job's own outcome is written just after the record's, in the worker's next statement.
    const jobs = await eventually(
      async () => {
        const rows = await db.current.sql<{ state: string; attempts: number }[]>`
        select state, attempts from jobs where kind = 'fulfill' and payload->>'fulfillment_id' = ${record.id}`;
        return rows.every((job) => job.state !== "running") && [...rows];
      },
      5000,
      "the job's outcome",
    );
    expect(jobs).toEqual([{ state: "dead", attempts: 1 }]);
    expect(trap.hits).toEqual([]);
  });

  test("gateway calls to a configured private base URL are refused as they connect", async () => {
    const customer = await tokenFor("customer");
    for (const gateway of ["gateway_a", "gateway_b"]) {
      const response = await call(guarded.app, "POST", "/api/checkout/create", {
        token: customer,
        body: { items: [{ product_id: productId, variant: "monthly" }], payment_gateway: gateway },
      });
      expectProblemShape(response, 422, "URL_NOT_ALLOWED");
    }
    expect(trap.hits).toEqual([]);
  });
});
