/**
 * Fault: SIGTERM under load, while jobs are running against a slow provider and requests are in
 * flight. Every request the process had accepted gets its full answer; the process exits cleanly
 * and hands its claimed jobs back at once (not when their leases expire); a second instance
 * finishes every delivery, and the provider sees each tenant once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import postgres from "postgres";
import { awaitActive, insertOrders, send, tenantsAtSimulator } from "../../bench/paid-orders.ts";
import {
  type BenchDatabase,
  type Service,
  startDatabase,
  startMarketplace,
  startSimulator,
} from "../../bench/services.ts";
import type { PostgresCluster } from "../../scripts/lib/postgres-cluster.ts";
import { forgeJwt, nowSeconds } from "../support/jwt.ts";

const ORDERS = 12;
const LEASE_SECONDS = 120;
const JOB_SETTINGS = { JOB_LEASE_SECONDS: String(LEASE_SECONDS), JOB_POLL_INTERVAL_MS: "200", JOB_CONCURRENCY: "4" };

let cluster: PostgresCluster;
let database: BenchDatabase;
let sql: postgres.Sql;
let sim: Service;
const instances: Service[] = [];

beforeAll(async () => {
  database = await startDatabase();
  cluster = database.cluster;
  sim = await startSimulator();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  await sql?.end({ timeout: 1 });
  for (const instance of instances) await instance.stop();
  await sim?.stop();
  await cluster?.remove();
});

const SLOW_REQUESTS = 6;
const SLOW_MS = 1500;
const LANES = 4;

async function simFault(body: object) {
  const response = await fetch(`${sim.url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
}

/** Browsing load until `stop`: every answer's status, and every request that failed outright. */
function browse(url: string, stop: { done: boolean }) {
  const statuses: number[] = [];
  const errors: string[] = [];
  const lanes = Array.from({ length: LANES }, async () => {
    while (!stop.done) {
      try {
        const response = await fetch(`${url}/api/products`);
        await response.arrayBuffer();
        statuses.push(response.status);
      } catch (error) {
        // Once the listener is closed a new connection is refused; that is the intended answer.
        errors.push((error as { code?: string }).code ?? String(error));
        await Bun.sleep(20);
      }
    }
  });
  return { statuses, errors, done: Promise.all(lanes) };
}

test("SIGTERM under load answers every accepted request, releases claimed jobs at once, and another instance delivers each order once", async () => {
  const first = await startMarketplace(database, sim.url, { ...JOB_SETTINGS, SHUTDOWN_TIMEOUT_MS: "6000" });
  instances.push(first);
  const registered = await fetch(`${first.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "sigterm@example.com", password: "fault password", name: "Faults" }),
  });
  const customerId = ((await registered.json()) as { user: { id: string } }).user.id;
  const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
  // The provider takes 6 s per onboarding, so jobs are mid-call when the signal comes.
  await simFault({ route: "onboard", mode: "delay", delay_ms: 6000, count: 4 });
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

  // Admin requests that wait 1.5 s on the provider are in flight when the signal comes, under browsing load.
  await simFault({ route: "admin_overview", mode: "delay", delay_ms: SLOW_MS, count: SLOW_REQUESTS });
  // The guard reads the account from the database: the token's holder must exist.
  const adminId = crypto.randomUUID();
  await sql`
    insert into users (id, email, name, role, password_hash)
    values (${adminId}, 'fault-admin@example.com', 'Fault admin', 'admin', 'tokens only')`;
  const admin = await forgeJwt(
    { alg: "HS256", typ: "JWT" },
    { sub: adminId, role: "admin", iss: "marketplace", iat: nowSeconds(), exp: nowSeconds() + 600 },
    "bench-jwt-secret-0123456789-abcdefghijk",
  );
  const stop = { done: false };
  const load = browse(first.url, stop);
  const slow = Array.from({ length: SLOW_REQUESTS }, async () => {
    const response = await fetch(`${first.url}/api/admin/products/${product?.id}/provider/overview`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  });
  await Bun.sleep(400);
  const browsedBefore = load.statuses.length;

  const signalled = Date.now();
  first.proc.kill("SIGTERM");
  const answers = await Promise.all(slow);
  expect(await first.proc.exited).toBe(0);
  const exitMs = Date.now() - signalled;
  stop.done = true;
  await load.done;
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  for (const answer of answers) expect(answer.body).toHaveProperty("tenants_total");
  expect(browsedBefore).toBeGreaterThan(0);
  expect(load.statuses.filter((status) => status !== 200)).toEqual([]);
  // Refused at connect, never cut off mid-answer.
  expect(load.errors.filter((code) => code !== "ECONNREFUSED")).toEqual([]);
  expect(exitMs).toBeLessThan(8000);
  const [held] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where locked_by is not null`;
  expect(held?.n).toBe(0);

  const second = await startMarketplace(database, sim.url, JOB_SETTINGS);
  instances.push(second);
  // Well inside the 120 s lease: only a released job can be taken this soon.
  await awaitActive(sql, ids, 45_000);
  const [records] = await sql<{ n: number }[]>`
      select count(*)::int as n from fulfillment_records where order_id in ${sql(ids)} and status = 'active'`;
  expect(records?.n).toBe(ORDERS);
  expect((await tenantsAtSimulator(sim.url)) - tenantsBefore).toBe(ORDERS);
  console.log(
    `[faults] SIGTERM: ${SLOW_REQUESTS}/${SLOW_REQUESTS} in-flight slow requests answered 200, ${load.statuses.length} browse answers all 200 (${load.errors.length} refused after close: ${[...new Set(load.errors)].join(", ")}); exit in ${exitMs} ms, ${claimed} claimed jobs released; all active ${Date.now() - signalled} ms after the signal`,
  );
}, 180_000);
