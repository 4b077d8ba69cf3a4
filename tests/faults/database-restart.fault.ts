/**
 * Fault: PostgreSQL restarts under webhook load. While it is down, requests get 503 problem+json
 * (never a 500); the marketplace recovers by itself; every webhook the gateway got a 200 for (or
 * redelivered after a 503, as gateways do) is fulfilled exactly once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { awaitActive, insertOrders, paidWebhook, tenantsAtSimulator } from "../../bench/paid-orders.ts";
import { type Service, startDatabase, startMarketplace, startSimulator } from "../../bench/services.ts";
import type { PostgresCluster } from "../../scripts/lib/postgres-cluster.ts";

const ORDERS = 120;
const DOWN_MS = 4000;
const LOG_PATH = join(tmpdir(), `marketplace-db-restart-${process.pid}.log`);

let cluster: PostgresCluster;
let sql: postgres.Sql;
let sim: Service;
let marketplace: Service;
let customerId = "";
let productId = "";

beforeAll(async () => {
  const database = await startDatabase();
  cluster = database.cluster;
  sim = await startSimulator();
  marketplace = await startMarketplace(
    database,
    sim.url,
    { JOB_POLL_INTERVAL_MS: "200", JOB_BACKOFF_BASE_MS: "200", JOB_BACKOFF_MAX_MS: "2000" },
    { logPath: LOG_PATH },
  );
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const registered = await fetch(`${marketplace.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "faults@example.com", password: "fault password", name: "Faults" }),
  });
  customerId = ((await registered.json()) as { user: { id: string } }).user.id;
  const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
  productId = product?.id ?? "";
}, 120_000);

afterAll(async () => {
  await sql?.end({ timeout: 1 });
  await marketplace?.stop();
  await sim?.stop();
  await cluster?.remove();
  rmSync(LOG_PATH, { force: true });
});

/** What a failed run needs explained: the process's fate, the undelivered records, its warnings. */
async function explain(ids: readonly string[]) {
  const states = await sql`
    select f.status, j.state, left(coalesce(f.last_error, j.last_error, ''), 160) as error, count(*)::int as n
    from fulfillment_records f left join jobs j on j.payload->>'fulfillment_id' = f.id::text
    where f.order_id in ${sql(ids as string[])} and f.status <> 'active'
    group by 1, 2, 3 order by n desc limit 10`;
  const warnings = (await Bun.file(LOG_PATH).text())
    .split("\n")
    .filter((line) => /"level":"(warn|error|fatal)"/.test(line))
    .slice(-20);
  console.log(`[faults] marketplace exit code: ${marketplace.proc.exitCode}; not delivered: ${JSON.stringify(states)}`);
  console.log(`[faults] last warnings:\n${warnings.join("\n")}`);
}

/** A gateway's delivery: redelivers on anything but 2xx, after a pause, until accepted. */
async function deliver(orderId: string, statuses: number[], problems: string[]) {
  for (;;) {
    const { body, headers } = paidWebhook(orderId);
    let status = 0;
    try {
      const response = await fetch(`${marketplace.url}/api/webhooks/gateway_b`, { method: "POST", headers, body });
      status = response.status;
      if (status >= 400) problems.push(response.headers.get("content-type") ?? "");
      await response.arrayBuffer();
    } catch {
      status = -1;
    }
    statuses.push(status);
    if (status === 200) return;
    await Bun.sleep(250);
  }
}

test("a database restart mid-load: 503 while down, recovery by itself, every paid order delivered once", async () => {
  const ids = await insertOrders(sql, customerId, productId, ORDERS);
  const tenantsBefore = await tenantsAtSimulator(sim.url);
  const statuses: number[] = [];
  const problems: string[] = [];
  const readiness: number[] = [];

  const load = (async () => {
    for (const id of ids) {
      await deliver(id, statuses, problems);
      await Bun.sleep(40);
    }
  })();
  await Bun.sleep(1000);
  let backAt = 0;
  const restarted = cluster.restart({ downMs: DOWN_MS }).then(() => {
    backAt = Date.now();
  });
  const probe = (async () => {
    const until = Date.now() + DOWN_MS;
    while (Date.now() < until) {
      readiness.push(
        await fetch(`${marketplace.url}/ready`).then(
          (r) => r.status,
          () => -1,
        ),
      );
      await Bun.sleep(200);
    }
  })();
  await Promise.all([restarted, probe]);
  await load;
  await awaitActive(sql, ids, 90_000).catch(async (error: unknown) => {
    await explain(ids);
    throw error;
  });

  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  const recoveredMs = Date.now() - backAt;
  console.log(
    `[faults] database restart, webhook answers by status: ${JSON.stringify(counts)}; all ${ORDERS} active ${recoveredMs} ms after the server was back`,
  );
  // Well inside the 30 s job lease: nothing waited for a lease to expire.
  expect(recoveredMs).toBeLessThan(20_000);
  expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
  expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
  expect(problems.every((type) => type.startsWith("application/problem+json"))).toBeTrue();
  expect(readiness).toContain(503);
  expect(readiness.filter((status) => status !== 200 && status !== 503)).toEqual([]);
  const [records] = await sql<{ n: number; orders: number }[]>`
      select count(*)::int as n, count(distinct order_id)::int as orders from fulfillment_records where order_id in ${sql(ids)}`;
  expect(records).toEqual({ n: ORDERS, orders: ORDERS });
  expect((await tenantsAtSimulator(sim.url)) - tenantsBefore).toBe(ORDERS);
  expect((await fetch(`${marketplace.url}/ready`)).status).toBe(200);
}, 180_000);
