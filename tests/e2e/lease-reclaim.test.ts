import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { createTestMarketplace } from "../support/app.ts";
import { tokenFor } from "../support/auth.ts";
import { hasRealPostgres, useTestDatabase } from "../support/database.ts";
import { eventually, FAST_JOBS, http, posProductFor, SANDBOX, tenantsAtSimulator } from "../support/e2e.ts";
import { call } from "../support/http.ts";
import { type RunningService, startService } from "../support/process.ts";
import { SIM_TOKEN, startProviderSim } from "../support/provider-sim.ts";

const db = useTestDatabase();
const running: RunningService[] = [];
let dataDir = "";
let sim: RunningService;
let portA = 0;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "mkt-lease-"));
  portA = await freePort();
  sim = await startProviderSim({ ...SANDBOX, PROVIDER_SIM_MARKETPLACE_URL: `http://127.0.0.1:${portA}` });
  running.push(sim);
}, 30_000);
afterAll(async () => {
  for (const service of running) if (service.proc.exitCode === null) service.proc.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

const instanceEnv = (port: number) => ({
  ...SANDBOX,
  ...FAST_JOBS,
  PORT: String(port),
  DATABASE_URL: db.current.url,
  DATA_DIR: dataDir,
  JWT_SECRET: "lease-test-secret-0123456789-abcdefghij",
  SECRETS_KEY: "lease-test-secrets-key-0123456789-abcdef",
  JOB_LEASE_SECONDS: "2",
  TICK_ENABLED: "false",
  SEED_DEMO_CATALOG: "false",
  GATEWAY_B_SANDBOX_BASE_URL: `${sim.url}/gateway_b`,
  GATEWAY_A_SANDBOX_BASE_URL: `${sim.url}/gateway_a`,
  SECRET_SIM_TOKEN: SIM_TOKEN,
});

test.skipIf(!hasRealPostgres)(
  "a job whose worker dies mid-run is reclaimed after its lease and completes once",
  async () => {
    const catalog = createTestMarketplace(db.current.sql, {}, { env: { ...SANDBOX, SECRET_SIM_TOKEN: SIM_TOKEN } });
    const product = await call(catalog.app, "POST", "/api/admin/products", {
      token: await tokenFor("admin"),
      body: posProductFor({ sim } as never),
    });
    await catalog.close();

    const a = await startService("adapters/main.ts", instanceEnv(portA));
    running.push(a);
    const registered = await http(a.url, "POST", "/api/auth/register", {
      body: { email: `lease-${crypto.randomUUID()}@example.com`, password: "customer password", name: "Lease" },
    });
    // The provider answers onboarding only after 4 s: instance A is inside the job when it dies.
    await fetch(`${sim.url}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ route: "onboard", mode: "delay", delay_ms: 4000, count: 1 }),
    });
    const checkout = await http(a.url, "POST", "/api/checkout/create", {
      token: registered.body.token,
      body: { items: [{ product_id: product.body.id, variant: "monthly" }], payment_gateway: "gateway_b" },
    });
    const orderId = checkout.body.order_id as string;
    const paid = await fetch(`${sim.url}/checkout/gateway_b/${checkout.body.checkout.session_id}/pay`, {
      method: "POST",
    });
    expect(((await paid.json()) as { status: number }).status).toBe(200);
    await eventually(
      async () => {
        const [row] = await db.current.sql`select status from fulfillment_records where order_id = ${orderId}`;
        return row?.status === "processing";
      },
      5000,
      "instance A inside the fulfill job",
    );
    a.proc.kill("SIGKILL");
    await a.proc.exited;

    const b = await startService("adapters/main.ts", instanceEnv(await freePort()));
    running.push(b);
    const record = await eventually(
      async () => {
        const [row] = await db.current.sql<{ id: string; status: string; attempts: number }[]>`
      select id, status, attempts from fulfillment_records where order_id = ${orderId}`;
        return row?.status === "active" ? row : undefined;
      },
      15_000,
      "instance B finishing the job",
    );
    expect(record.attempts).toBe(2);
    // The job's own outcome is written just after the record it delivered: wait for it, not a moment.
    const job = await eventually(
      async () => {
        const [row] = await db.current.sql<{ state: string; attempts: number }[]>`
        select state, attempts from jobs where kind = 'fulfill' and payload->>'fulfillment_id' = ${record.id}`;
        return row?.state === "running" ? undefined : row;
      },
      5000,
      "the reclaimed job's outcome",
    );
    expect(job).toEqual({ state: "done", attempts: 2 });
    expect(await tenantsAtSimulator({ sim } as never, orderId)).toBe(1);
    expect(await b.stop()).toBe(0);
  },
  60_000,
);
