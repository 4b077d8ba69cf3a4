/**
 * Fault: SIGTERM while jobs are running against a slow provider. The process exits cleanly and
 * hands its claimed jobs back at once (not when their leases expire); a second instance finishes
 * every delivery, and the provider sees each tenant once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import postgres from "postgres";
import { awaitActive, insertOrders, send, tenantsAtSimulator } from "../../bench/paid-orders.ts";
import { type Service, startDatabase, startMarketplace, startSimulator } from "../../bench/services.ts";
import type { PostgresCluster } from "../../scripts/lib/postgres-cluster.ts";

const ORDERS = 12;
const LEASE_SECONDS = 120;
const JOB_SETTINGS = { JOB_LEASE_SECONDS: String(LEASE_SECONDS), JOB_POLL_INTERVAL_MS: "200", JOB_CONCURRENCY: "4" };

let cluster: PostgresCluster;
let databaseUrl = "";
let sql: postgres.Sql;
let sim: Service;
const instances: Service[] = [];

beforeAll(async () => {
  const database = await startDatabase();
  cluster = database.cluster;
  databaseUrl = database.url;
  sim = await startSimulator();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  await sql?.end({ timeout: 1 });
  for (const instance of instances) await instance.stop();
  await sim?.stop();
  await cluster?.remove();
});

test("SIGTERM releases claimed jobs at once and another instance delivers each order once", async () => {
  const first = await startMarketplace(databaseUrl, sim.url, { ...JOB_SETTINGS, SHUTDOWN_TIMEOUT_MS: "3000" });
  instances.push(first);
  const registered = await fetch(`${first.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "sigterm@example.com", password: "fault password", name: "Faults" }),
  });
  const customerId = ((await registered.json()) as { user: { id: string } }).user.id;
  const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
  // The provider takes 6 s per onboarding, so jobs are mid-call when the signal comes.
  const fault = await fetch(`${sim.url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ route: "onboard", mode: "delay", delay_ms: 6000, count: 4 }),
  });
  expect(fault.status).toBe(201);
  const tenantsBefore = await tenantsAtSimulator(sim.url);
  const ids = await insertOrders(sql, customerId, product?.id ?? "", ORDERS);
  for (const id of ids) await send(first.url, id);

  const deadline = Date.now() + 10_000;
  let claimed = 0;
  while (claimed === 0 && Date.now() < deadline) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where locked_by is not null`;
    claimed = row?.n ?? 0;
    if (claimed === 0) await Bun.sleep(50);
  }
  expect(claimed).toBeGreaterThan(0);

  const signalled = Date.now();
  first.proc.kill("SIGTERM");
  expect(await first.proc.exited).toBe(0);
  const exitMs = Date.now() - signalled;
  expect(exitMs).toBeLessThan(5000);
  const [held] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where locked_by is not null`;
  expect(held?.n).toBe(0);

  const second = await startMarketplace(databaseUrl, sim.url, JOB_SETTINGS);
  instances.push(second);
  // Well inside the 120 s lease: only a released job can be taken this soon.
  await awaitActive(sql, ids, 45_000);
  const [records] = await sql<{ n: number }[]>`
      select count(*)::int as n from fulfillment_records where order_id in ${sql(ids)} and status = 'active'`;
  expect(records?.n).toBe(ORDERS);
  expect((await tenantsAtSimulator(sim.url)) - tenantsBefore).toBe(ORDERS);
  console.log(
    `[faults] SIGTERM: exit in ${exitMs} ms, ${claimed} claimed jobs released; all active ${Date.now() - signalled} ms after the signal`,
  );
}, 180_000);
