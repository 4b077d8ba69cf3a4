import { beforeAll, expect } from "bun:test";
import { SERVER_BODY_LIMIT } from "../../kit/body-parser.ts";
import { createLogger } from "../../kit/logger.ts";
import type { Fault } from "../../provider-sim/faults.ts";
import { createTestMarketplace } from "./app.ts";
import { tokenFor } from "./auth.ts";
import { aPointOfSaleProduct } from "./builders/products.ts";
import type { TestDatabase, TestDatabaseHandle } from "./database.ts";
import { SANDBOX } from "./gateway-env.ts";
import { call, http } from "./http.ts";
import { type RunningProviderSim, SIM_TOKEN, startProviderSim } from "./provider-sim.ts";
import { keepTestLog } from "./test-logs.ts";

export { SANDBOX } from "./gateway-env.ts";
export { http } from "./http.ts";

/** Fast retries so failure paths finish in a test's time; everything else as in production. */
export const FAST_JOBS = {
  JOB_BACKOFF_BASE_MS: "40",
  JOB_BACKOFF_MAX_MS: "400",
  JOB_MAX_ATTEMPTS: "4",
  JOB_POLL_INTERVAL_MS: "200",
  JOB_LEASE_SECONDS: "10",
  SUBSCRIPTION_GRACE_HOURS: "1",
} as const;

export interface E2eOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Email through the simulator's mail sandbox (`SMTP_URL` and `MAIL_FROM` set to it). */
  readonly mailSandbox?: boolean;
  readonly clock?: () => Date;
  readonly random?: () => number;
}

/**
 * The marketplace over real HTTP with its job worker running, and the provider simulator with both
 * gateway sandboxes delivering signed webhooks to it, on a real PostgreSQL.
 */
export function useE2e(db: TestDatabaseHandle, options: E2eOptions = {}) {
  const state: {
    sim?: RunningProviderSim;
    marketplace?: ReturnType<typeof createTestMarketplace>;
    server?: ReturnType<typeof Bun.serve>;
    url?: string;
  } = {};
  const logs: string[] = [];
  beforeAll(async () => {
    // Listening first, on a port of the kernel's choosing: the simulator, started next, needs the
    // marketplace's address, and a port only probed free could be taken by it meanwhile.
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      maxRequestBodySize: SERVER_BODY_LIMIT,
      fetch: () => new Response("starting", { status: 503 }),
    });
    state.server = server;
    state.url = `http://127.0.0.1:${server.port}`;
    state.sim = await startProviderSim({ ...SANDBOX, PROVIDER_SIM_MARKETPLACE_URL: state.url });
    state.marketplace = createTestMarketplace(
      db.current.sql,
      {},
      {
        env: {
          ...SANDBOX,
          ...FAST_JOBS,
          GATEWAY_A_SANDBOX_BASE_URL: `${state.sim.url}/gateway_a`,
          GATEWAY_B_SANDBOX_BASE_URL: `${state.sim.url}/gateway_b`,
          SECRET_SIM_TOKEN: SIM_TOKEN,
          PUBLIC_BASE_URL: state.url,
          ...(options.mailSandbox
            ? { SMTP_URL: state.sim.smtpUrl, MAIL_FROM: "Example Shop <shop@shop.example>" }
            : {}),
          ...options.env,
        },
        // The production logger (with its redaction), kept for assertions and for the secrets scan.
        logger: createLogger({
          level: "info",
          destination: {
            write: (line: string) => {
              logs.push(line);
              keepTestLog("e2e", line);
            },
          },
        }),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.random ? { random: options.random } : {}),
      },
    );
    server.reload({ fetch: state.marketplace.app.fetch });
    state.marketplace.worker.start();
  }, 30_000);
  db.onTeardown(async () => {
    await state.marketplace?.worker.stop({ timeoutMs: 2000 });
    state.server?.stop(true);
    await state.marketplace?.close();
    await state.sim?.stop();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} used before the e2e setup ran`);
    return value;
  };
  return {
    logs,
    get sim() {
      return need(state.sim, "sim");
    },
    get marketplace() {
      return need(state.marketplace, "marketplace");
    },
    get url() {
      return need(state.url, "url");
    },
  };
}

export type E2e = ReturnType<typeof useE2e>;

/** Polls until `check` returns something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 5000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(25);
  }
}

export async function registerCustomer(e2e: E2e) {
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email: `e2e-${crypto.randomUUID()}@example.com`, password: "customer password", name: "E2E Customer" },
  });
  expect(registered.status).toBe(201);
  return { token: registered.body.token as string, id: registered.body.user.id as string };
}

export async function createProduct(e2e: E2e, input: object) {
  const admin = await tokenFor("admin");
  const created = await call(e2e.marketplace.app, "POST", "/api/admin/products", { token: admin, body: input });
  expect(created.status).toBe(201);
  return created.body as { id: string; slug: string };
}

/** The point-of-sale product pointing at the running simulator. */
export function posProductFor(e2e: E2e, overrides: object = {}) {
  const base = aPointOfSaleProduct();
  return aPointOfSaleProduct({
    supports_trial: false,
    trial_days: null,
    fulfillment_config: {
      ...base.fulfillment_config,
      base_url: e2e.sim.url,
      credentials_ref: "sim_token",
      management: { enabled: true, base_url: e2e.sim.url },
    },
    ...overrides,
  });
}

/**
 * Checks out through the sandbox of `gateway` and presses Pay, signed in or as a guest giving an
 * address; returns the order id and the order status page's address.
 */
export async function buyAndPay(
  e2e: E2e,
  buyer: { token: string } | { email: string; name?: string },
  items: object[],
  gateway: "gateway_a" | "gateway_b",
) {
  const checkout = await http(e2e.url, "POST", "/api/checkout/create", {
    ...("token" in buyer ? { token: buyer.token } : {}),
    body: { items, payment_gateway: gateway, ...("token" in buyer ? {} : buyer) },
  });
  expect(checkout.status).toBe(201);
  const paidAt = performance.now();
  const paid = await fetch(`${e2e.sim.url}/checkout/${gateway}/${checkout.body.checkout.session_id}/pay`, {
    method: "POST",
  });
  const result = (await paid.json()) as { delivered: boolean; status: number | null };
  expect(result).toMatchObject({ delivered: true, status: 200 });
  return {
    orderId: checkout.body.order_id as string,
    sessionId: checkout.body.checkout.session_id as string,
    statusUrl: checkout.body.order_status_url as string,
    paidAt,
  };
}

export async function fulfillmentsOf(db: { readonly current: TestDatabase }, orderId: string) {
  return db.current.sql<
    {
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
      external_reference_id: string | null;
      external_workspace_url: string | null;
      external_status: string | null;
      driver: string;
    }[]
  >`
    select id, status, attempts, last_error, external_reference_id, external_workspace_url, external_status, driver
    from fulfillment_records where order_id = ${orderId} order by created_at`;
}

/** Waits until the order's first fulfillment record reaches `status`; returns that record. */
export async function fulfillmentReaches(
  db: { readonly current: TestDatabase },
  orderId: string,
  status: string,
  timeoutMs = 5000,
) {
  return eventually(
    async () => {
      const [record] = await fulfillmentsOf(db, orderId);
      return record?.status === status ? record : undefined;
    },
    timeoutMs,
    `a ${status} fulfillment`,
  );
}

/** The simulator's next `count` onboarding calls fail, stall or answer late, as `fault` says. */
export async function failOnboarding(e2e: E2e, fault: Omit<Fault, "route">): Promise<void> {
  const response = await fetch(`${e2e.sim.url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ route: "onboard", ...fault }),
  });
  expect(response.status).toBe(201);
}

/** How many tenants the simulator holds for an order. */
export async function tenantsAtSimulator(e2e: E2e, orderId: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const response = await fetch(
      `${e2e.sim.url}/api/marketplace/admin/tenants?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      { headers: { authorization: `Bearer ${SIM_TOKEN}` } },
    );
    const page = (await response.json()) as { items: { order_id: string }[]; next_cursor: string | null };
    count += page.items.filter((t) => t.order_id === orderId).length;
    cursor = page.next_cursor;
  } while (cursor);
  return count;
}

/** A token of a real admin account (audit columns such as `completed_by` reference it). */
export async function adminToken(e2e: E2e): Promise<string> {
  const admin = await e2e.marketplace.users.upsert({
    email: `admin-${crypto.randomUUID()}@example.com`,
    name: "Ops Admin",
    role: "admin",
    passwordHash: "not-used-for-login",
  });
  return tokenFor("admin", admin.id);
}
