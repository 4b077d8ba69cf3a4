import { afterEach, describe, expect, test } from "bun:test";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { tokenFor } from "../support/auth.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  FAST_JOBS,
  failOnboarding,
  fulfillmentReaches,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  tenantsAtSimulator,
  useE2e,
} from "../support/e2e.ts";

const db = useTestDatabase();
// Backoff slow enough that a test can bring the provider back between two attempts; jitter at its maximum.
const e2e = useE2e(db, {
  random: () => 1,
  env: { JOB_BACKOFF_BASE_MS: "300", JOB_BACKOFF_MAX_MS: "900", JOB_MAX_ATTEMPTS: FAST_JOBS.JOB_MAX_ATTEMPTS },
});
const MAX_ATTEMPTS = Number(FAST_JOBS.JOB_MAX_ATTEMPTS);
const proxies: ReturnType<typeof Bun.serve>[] = [];
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.stop(true);
});

type Mode = { mode: "hang" } | { mode: "garbage" } | { mode: "delay"; delay_ms: number };

/** A point-of-sale product whose provider calls time out after one second, at `baseUrl`. */
async function productAt(baseUrl: string) {
  const base = posProductFor(e2e) as { fulfillment_config: Record<string, unknown> };
  return createProduct(
    e2e,
    posProductFor(e2e, { fulfillment_config: { ...base.fulfillment_config, base_url: baseUrl, timeout_seconds: 1 } }),
  );
}

async function buy(productId: string) {
  const customer = await registerCustomer(e2e);
  return buyAndPay(e2e, customer, [{ product_id: productId, variant: "monthly" }], "gateway_a");
}

const recordOf = async (orderId: string) => (await fulfillmentsOf(db, orderId))[0];

/** A reverse proxy to the simulator on `port`: the provider "comes back" at the address it was refusing on. */
function providerComesBackOn(port: number) {
  const proxy = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const hasBody = request.method !== "GET" && request.method !== "HEAD";
      return fetch(`${e2e.sim.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      });
    },
  });
  proxies.push(proxy);
}

async function deadJobOf(fulfillmentId: string, admin: string) {
  const dead = await http(e2e.url, "GET", "/api/admin/jobs?state=dead&kind=fulfill&limit=100", { token: admin });
  expect(dead.status).toBe(200);
  const job = dead.body.items.find(
    (item: { payload: { fulfillment_id: string } }) => item.payload.fulfillment_id === fulfillmentId,
  );
  expect(job).toBeDefined();
  return job as { id: string; last_error: string };
}

describe("provider outages end to end", () => {
  test("a provider hanging past timeout_seconds twice: retried, then active with one tenant", async () => {
    const product = await productAt(e2e.sim.url);
    await failOnboarding(e2e, { ...{ mode: "hang" }, count: 2 });
    const { orderId } = await buy(product.id);
    const record = await fulfillmentReaches(db, orderId, "active", 10_000);
    expect(record.attempts).toBe(3);
    expect(record.last_error).toContain("did not answer within 1 s");
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
  }, 15_000);

  test("a provider answering garbage twice: retried, then active with one tenant", async () => {
    const product = await productAt(e2e.sim.url);
    await failOnboarding(e2e, { ...{ mode: "garbage" }, count: 2 });
    const { orderId } = await buy(product.id);
    const record = await fulfillmentReaches(db, orderId, "active", 10_000);
    expect(record.attempts).toBe(3);
    expect(record.last_error).toContain("answered with an invalid body");
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
  }, 15_000);

  test("a provider refusing connections until it comes back: retried, then active with one tenant", async () => {
    const port = await freePort();
    const product = await productAt(`http://127.0.0.1:${port}`);
    const { orderId } = await buy(product.id);
    await eventually(
      async () => {
        const record = await recordOf(orderId);
        return record?.status === "queued" && record.attempts >= 2;
      },
      10_000,
      "two refused attempts",
    );
    expect((await recordOf(orderId))?.last_error).toContain("could not be reached");
    providerComesBackOn(port);
    const record = await fulfillmentReaches(db, orderId, "active", 10_000);
    expect(record.attempts).toBeGreaterThanOrEqual(3);
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
  }, 15_000);

  test.each([
    ["hanging", { mode: "hang" } as Mode, "did not answer within 1 s"],
    ["answering garbage", { mode: "garbage" } as Mode, "answered with an invalid body"],
  ])(
    "a provider %s on every attempt: failed with a readable last_error and a dead job",
    async (_, spec, reason) => {
      const product = await productAt(e2e.sim.url);
      await failOnboarding(e2e, { ...spec, count: MAX_ATTEMPTS });
      const { orderId } = await buy(product.id);
      const record = await fulfillmentReaches(db, orderId, "failed", 15_000);
      expect(record.attempts).toBe(MAX_ATTEMPTS);
      expect(record.last_error).toMatch(new RegExp(`^The provider ${reason}`));
      const job = await deadJobOf(record.id, await tokenFor("admin"));
      expect(job.last_error).toContain(reason);
      expect(await tenantsAtSimulator(e2e, orderId)).toBe(0);
    },
    20_000,
  );

  test("a provider refusing on every attempt: failed with a readable last_error", async () => {
    const product = await productAt(`http://127.0.0.1:${await freePort()}`);
    const { orderId } = await buy(product.id);
    const record = await fulfillmentReaches(db, orderId, "failed", 15_000);
    expect(record.attempts).toBe(MAX_ATTEMPTS);
    expect(record.last_error).toBe("The provider could not be reached: connection refused (ECONNREFUSED).");
  }, 20_000);

  test("redriving a dead job whose answers were lost delivers once; a second redrive racing it, and a retry or redrive afterwards, provision nothing more", async () => {
    const product = await productAt(e2e.sim.url);
    // Each call is handled after the client gave up: the tenant exists, but no answer arrives.
    await failOnboarding(e2e, { ...{ mode: "delay", delay_ms: 1500 }, count: MAX_ATTEMPTS });
    const { orderId } = await buy(product.id);
    const record = await fulfillmentReaches(db, orderId, "failed", 20_000);
    expect(record.last_error).toContain("did not answer within 1 s");
    await eventually(
      async () => (await tenantsAtSimulator(e2e, orderId)) === 1,
      5000,
      "the tenant behind the timeouts",
    );

    const admin = await tokenFor("admin");
    const job = await deadJobOf(record.id, admin);
    const [redriven, again] = await Promise.all([
      http(e2e.url, "POST", `/api/admin/jobs/${job.id}/redrive`, { token: admin }),
      http(e2e.url, "POST", `/api/admin/jobs/${job.id}/redrive`, { token: admin }),
    ]);
    expect(redriven.status).toBe(200);
    expect(again.status).toBe(200);
    expect([redriven.body.state, again.body.state]).toContain("pending");

    const active = await fulfillmentReaches(db, orderId, "active", 10_000);
    expect(active.external_reference_id).not.toBeNull();
    expect(e2e.logs.some((line) => line.includes('"fulfillment redriven"') && line.includes(orderId))).toBeTrue();
    const retried = await http(e2e.url, "POST", `/api/admin/fulfillments/${record.id}/retry`, { token: admin });
    expect(retried.status).toBe(409);
    const afterwards = await http(e2e.url, "POST", `/api/admin/jobs/${job.id}/redrive`, { token: admin });
    expect(afterwards.body.state).toBe("done");
    await Bun.sleep(500);
    expect((await recordOf(orderId))?.status).toBe("active");
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
  }, 30_000);
});
