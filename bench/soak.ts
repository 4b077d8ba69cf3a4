/**
 * `npm run soak`: mixed load for SOAK_SECONDS (default 600) against one production-configured
 * marketplace on a throwaway PostgreSQL: catalog browsing, checkout calculation and checkout sessions
 * opened at the simulator's gateway sandbox, paid webhooks that provision through the simulator, and
 * the customer dashboard. Fails on any unintended error
 * response or when RSS grows 10 % or more after the warm-up (the first fifth of the run).
 */
import postgres from "postgres";
import { awaitActive, insertOrders, paidWebhook } from "./paid-orders.ts";
import { rssMb, type Service, startDatabase, startMarketplace, startSimulator } from "./services.ts";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const LANES = Number(process.env.SOAK_LANES ?? 8);
/** Paid orders per second: a shop's rate, below what provisioning drains, so no backlog builds. */
const PAID_PER_SECOND = Number(process.env.SOAK_PAID_PER_SECOND ?? 20);
/** Checkout sessions opened per second (each one a pending order and a session at the gateway). */
const SESSIONS_PER_SECOND = Number(process.env.SOAK_SESSIONS_PER_SECOND ?? 5);
const say = (line: string) => console.log(`[soak] ${line}`);

const database = await startDatabase();
const services: Service[] = [];
const counts: Record<string, number> = {};
const errors: string[] = [];
try {
  const sim = await startSimulator();
  services.push(sim);
  const marketplace = await startMarketplace(database, sim.url);
  services.push(marketplace);
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const registered = await fetch(`${marketplace.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "soak@example.com", password: "soak password", name: "Soak" }),
  });
  const { user, token } = (await registered.json()) as { user: { id: string }; token: string };
  // The dashboard customer keeps 20 orders; later paid orders go to a second customer, so the
  // dashboard measures a steady page rather than one that grows by the thousand.
  const bulk = await fetch(`${marketplace.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "soak-bulk@example.com", password: "soak password", name: "Bulk" }),
  });
  const bulkCustomer = (await bulk.json()) as { user: { id: string }; token: string };
  const bulkId = bulkCustomer.user.id;
  const [product] = await sql<
    { id: string; slug: string }[]
  >`select id, slug from products where slug = 'tillpoint-pos'`;
  if (!product) throw new Error("the seeded point-of-sale product is missing");
  const paidOrders: string[] = [];
  let sessions = 0;
  let started = Date.now();
  const elapsedSeconds = () => (Date.now() - started) / 1000;

  const request = async (kind: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${marketplace.url}${path}`, init);
    await response.arrayBuffer();
    counts[`${kind} ${response.status}`] = (counts[`${kind} ${response.status}`] ?? 0) + 1;
    if (response.status >= 400) errors.push(`${kind} ${path}: ${response.status}`);
  };
  const json = (body: unknown, extra: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "content-type": "application/json", ...extra },
    body: JSON.stringify(body),
  });
  const items = [{ product_id: product.id, variant: "monthly", options: { workspace: "Soak Shop" } }];
  const actions = [
    () => request("browse", "/api/products?limit=20"),
    () => request("browse", `/api/products/${product.slug}`),
    () => request("checkout", "/api/checkout/calculate", json({ items })),
    () => {
      if (sessions >= elapsedSeconds() * SESSIONS_PER_SECOND) {
        return request("checkout", "/api/checkout/calculate", json({ items }));
      }
      sessions++;
      return request(
        "session",
        "/api/checkout/create",
        json({ items, payment_gateway: "gateway_b" }, { authorization: `Bearer ${bulkCustomer.token}` }),
      );
    },
    async () => {
      if (paidOrders.length >= elapsedSeconds() * PAID_PER_SECOND) {
        return request("browse", "/api/products?limit=20");
      }
      const owner = paidOrders.length < 20 ? user.id : bulkId;
      const [orderId] = await insertOrders(sql, owner, product.id, 1);
      if (!orderId) return;
      paidOrders.push(orderId);
      const { body, headers } = paidWebhook(orderId);
      await request("webhook", "/api/webhooks/gateway_b", { method: "POST", headers, body });
    },
    () => request("dashboard", "/api/dashboard", { headers: { authorization: `Bearer ${token}` } }),
  ];

  started = Date.now();
  const warmUpEnds = started + (SECONDS * 1000) / 5;
  let baseline = 0;
  let latest = 0;
  const sampler = setInterval(async () => {
    latest = await rssMb(marketplace.proc.pid);
    if (baseline === 0 && Date.now() >= warmUpEnds) baseline = latest;
  }, 1000);
  let done = 0;
  const lane = async (n: number) => {
    for (let i = n; Date.now() - started < SECONDS * 1000; i++) {
      await actions[i % actions.length]?.();
      done++;
    }
  };
  await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
  clearInterval(sampler);
  latest = await rssMb(marketplace.proc.pid);
  await awaitActive(sql, paidOrders, 120_000).catch(async (error: unknown) => {
    const states = await sql`
      select f.status, j.state, left(coalesce(f.last_error, j.last_error, ''), 120) as error, count(*)::int as n
      from fulfillment_records f left join jobs j on j.payload->>'fulfillment_id' = f.id::text
      where f.order_id in ${sql(paidOrders)} and f.status <> 'active'
      group by 1, 2, 3 order by n desc limit 10`;
    say(`not delivered: ${JSON.stringify(states)}`);
    throw error;
  });
  await sql.end();

  const growth = baseline > 0 ? (latest - baseline) / baseline : 0;
  say(`${done} requests in ${SECONDS} s over ${LANES} lanes: ${JSON.stringify(counts)}`);
  say(`${paidOrders.length} paid orders, all active; ${sessions} checkout sessions opened`);
  say(
    `RSS after warm-up ${baseline.toFixed(1)} MB, at the end ${latest.toFixed(1)} MB: growth ${(growth * 100).toFixed(1)} %`,
  );
  if (errors.length > 0) say(`unintended errors: ${errors.length}, first: ${errors.slice(0, 5).join("; ")}`);
  process.exitCode = errors.length === 0 && growth < 0.1 ? 0 : 1;
} finally {
  for (const service of services.reverse()) await service.stop();
  await database.cluster.remove();
}
