/**
 * `npm run bench`: the performance figures (README, Performance), measured side by side in one run on a
 * throwaway PostgreSQL, with load from separate processes on loopback. Writes bench/results.json.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { freePort } from "../scripts/lib/postgres-cluster.ts";
import { awaitActive, insertOrders, send, tenantsAtSimulator } from "./paid-orders.ts";
import { rssMb, type Service, startDatabase, startMarketplace, startSimulator, WEBHOOK_SECRET } from "./services.ts";

const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const E2E_ORDERS = Number(process.env.BENCH_E2E_ORDERS ?? 2000);
const E2E_RATE = Number(process.env.BENCH_E2E_RATE ?? 100);
const SCALE_ORDERS = Number(process.env.BENCH_SCALE_ORDERS ?? 800);
const PROVIDER_LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 25);

const say = (line: string) => console.log(`[bench] ${line}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const spread = (values: number[]) => ({ min: Math.min(...values), max: Math.max(...values) });
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

async function run(command: string[]): Promise<string> {
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "inherit" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}`);
  return out;
}

async function autocannon(url: string, connections: number, seconds: number): Promise<number> {
  const out = await run([
    "node",
    "node_modules/autocannon/autocannon.js",
    "-c",
    String(connections),
    "-d",
    String(seconds),
    "-j",
    url,
  ]);
  const result = JSON.parse(out) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function catalogRatio(marketplace: Service) {
  const dir = await mkdtemp(join(tmpdir(), "bench-raw-"));
  const file = join(dir, "products.json");
  await writeFile(file, new Uint8Array(await (await fetch(`${marketplace.url}/api/products`)).arrayBuffer()));
  const port = await freePort();
  const raw = Bun.spawn(["bun", "bench/raw-server.ts", file, String(port)], { stdout: "pipe", stderr: "inherit" });
  const rawUrl = `http://127.0.0.1:${port}/api/products`;
  for (
    let i = 0;
    i < 50 &&
    !(await fetch(rawUrl)
      .then((r) => r.ok)
      .catch(() => false));
    i++
  )
    await Bun.sleep(100);
  const target = `${marketplace.url}/api/products`;
  await autocannon(target, 50, 2);
  await autocannon(rawUrl, 50, 2);
  const ratios: number[] = [];
  const app: number[] = [];
  const floor: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    app.push(await autocannon(target, 50, SECONDS));
    floor.push(await autocannon(rawUrl, 50, SECONDS));
    ratios.push((app.at(-1) ?? 0) / (floor.at(-1) ?? 1));
    say(`catalog rep ${rep + 1}: ${Math.round(app.at(-1) ?? 0)} vs ${Math.round(floor.at(-1) ?? 0)} req/s`);
  }
  raw.kill();
  await rm(dir, { recursive: true, force: true });
  return {
    catalog_ratio: round(median(ratios)),
    spread: spread(ratios.map((r) => round(r))),
    marketplace_rps: round(median(app), 0),
    raw_bun_rps: round(median(floor), 0),
  };
}

async function webhookRatio(marketplace: Service, databaseUrl: string) {
  const url = `${marketplace.url}/api/webhooks/gateway_b`;
  const connections = 20;
  const load = async (seconds: number) =>
    JSON.parse(
      await run(["node", "bench/webhook-load.cjs", url, WEBHOOK_SECRET, String(connections), String(seconds)]),
    ) as {
      requests_per_sec: number;
      non2xx: number;
    };
  const direct = async (seconds: number) =>
    (
      JSON.parse(await run(["bun", "bench/direct-inbox.ts", databaseUrl, String(connections), String(seconds)])) as {
        events_per_sec: number;
      }
    ).events_per_sec;
  await load(2);
  await direct(2);
  const ratios: number[] = [];
  const http: number[] = [];
  const floor: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const result = await load(SECONDS);
    if (result.non2xx > 0) throw new Error(`webhooks: ${result.non2xx} non-2xx answers`);
    http.push(result.requests_per_sec);
    floor.push(await direct(SECONDS));
    ratios.push((http.at(-1) ?? 0) / (floor.at(-1) ?? 1));
    say(
      `webhook rep ${rep + 1}: ${Math.round(http.at(-1) ?? 0)} accepted/s vs ${Math.round(floor.at(-1) ?? 0)} direct/s`,
    );
  }
  return {
    webhook_ratio: round(median(ratios)),
    spread: spread(ratios.map((r) => round(r))),
    accepted_per_sec: round(median(http), 0),
    direct_per_sec: round(median(floor), 0),
  };
}

async function timings(sql: postgres.Sql, ids: readonly string[]) {
  const [row] = await sql<{ p50: number; p99: number; span: number }[]>`
    select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99,
           extract(epoch from max(active_at) - min(received_at)) as span
    from (
      select extract(epoch from f.updated_at - w.received_at) * 1000 as ms, f.updated_at as active_at, w.received_at
      from fulfillment_records f join webhook_inbox w on w.event_id = 'evt_bench_' || f.order_id
      where f.order_id in ${sql(ids as string[])}
    ) t`;
  return {
    p50: round(row?.p50 ?? 0, 1),
    p99: round(row?.p99 ?? 0, 1),
    ordersPerSec: round(ids.length / (row?.span || 1), 1),
  };
}

async function e2e(sql: postgres.Sql, marketplace: Service, sim: Service, customerId: string, productId: string) {
  const ids = await insertOrders(sql, customerId, productId, E2E_ORDERS);
  const tenantsBefore = await tenantsAtSimulator(sim.url);
  let peak = await rssMb(marketplace.proc.pid);
  const sampler = setInterval(() => void rssMb(marketplace.proc.pid).then((mb) => (peak = Math.max(peak, mb))), 100);
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < ids.length; i++) {
    const due = started + (i * 1000) / E2E_RATE;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    sends.push(send(marketplace.url, ids[i] ?? ""));
  }
  await Promise.all(sends);
  await awaitActive(sql, ids, 120_000);
  clearInterval(sampler);
  const { p50, p99, ordersPerSec } = await timings(sql, ids);
  const duplicates = (await tenantsAtSimulator(sim.url)) - tenantsBefore - ids.length;
  say(`e2e: ${ids.length} orders at ${E2E_RATE}/s, p50 ${p50} ms, p99 ${p99} ms, peak RSS ${round(peak, 1)} MB`);
  return {
    orders: ids.length,
    rate_per_sec: E2E_RATE,
    p50_ms: p50,
    p99_ms: p99,
    orders_per_sec: ordersPerSec,
    duplicates,
    peak_rss_mb: round(peak, 1),
  };
}

/**
 * Throughput with everything sent at once (50 in flight), spread over the given instances. The
 * provider answers onboarding after PROVIDER_LATENCY_MS, as a real one across a network does: on
 * a 2-core machine shared by PostgreSQL, the simulator and the load, a pipeline whose provider
 * answers in a millisecond is bound by CPU, and adding an instance cannot help; with real latency,
 * workers wait on I/O and instances add capacity.
 */
async function burst(
  sql: postgres.Sql,
  sim: Service,
  instances: readonly Service[],
  customerId: string,
  productId: string,
) {
  const latency = await fetch(`${sim.url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ route: "onboard", mode: "delay", delay_ms: PROVIDER_LATENCY_MS, count: SCALE_ORDERS }),
  });
  if (latency.status !== 201) throw new Error(`the simulator refused the latency fault: ${await latency.text()}`);
  const ids = await insertOrders(sql, customerId, productId, SCALE_ORDERS);
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const i = next++;
      await send(instances[i % instances.length]?.url ?? "", ids[i] ?? "");
    }
  };
  await Promise.all(Array.from({ length: 50 }, lane));
  await awaitActive(sql, ids, 180_000);
  return (await timings(sql, ids)).ordersPerSec;
}

const database = await startDatabase();
const services: Service[] = [];
try {
  const sim = await startSimulator();
  services.push(sim);
  say(`PostgreSQL on ${database.url}, simulator on ${sim.url}`);

  const catalogHost = await startMarketplace(database.url, sim.url, { JOBS_ENABLED: "false" });
  services.push(catalogHost);
  const catalog = await catalogRatio(catalogHost);
  const webhooks = await webhookRatio(catalogHost, database.url);
  await catalogHost.stop();

  const sql = postgres(database.url, { max: 4, onnotice: () => {} });
  await sql`truncate webhook_inbox, jobs`;
  const primary = await startMarketplace(database.url, sim.url);
  services.push(primary);
  const registered = await (
    await fetch(`${primary.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", password: "bench password", name: "Bench" }),
    })
  ).json();
  const customerId = (registered as { user: { id: string } }).user.id;
  const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
  if (!product) throw new Error("the seeded point-of-sale product is missing");

  const e2eResult = await e2e(sql, primary, sim, customerId, product.id);
  const one = await burst(sql, sim, [primary], customerId, product.id);
  say(`scale: one instance ${one} orders/s`);
  const secondary = await startMarketplace(database.url, sim.url);
  services.push(secondary);
  const two = await burst(sql, sim, [primary, secondary], customerId, product.id);
  say(`scale: two instances ${two} orders/s`);
  await sql.end();

  const results = {
    measured_at: new Date().toISOString(),
    machine: { cpus: navigator.hardwareConcurrency, bun: Bun.version },
    settings: { reps: REPS, seconds: SECONDS },
    catalog,
    webhooks,
    e2e: e2eResult,
    scale: {
      orders: SCALE_ORDERS,
      provider_latency_ms: PROVIDER_LATENCY_MS,
      one_instance_orders_per_sec: one,
      two_instances_orders_per_sec: two,
      speedup: round(two / one),
    },
    targets: {
      catalog_ratio: { target: ">= 0.6", met: catalog.catalog_ratio >= 0.6 },
      webhook_ratio: { target: ">= 0.6", met: webhooks.webhook_ratio >= 0.6 },
      e2e_p50_ms: { target: "<= 50", met: e2eResult.p50_ms <= 50 },
      e2e_p99_ms: { target: "<= 250", met: e2eResult.p99_ms <= 250 },
      duplicates: { target: "0", met: e2eResult.duplicates === 0 },
      peak_rss_mb: { target: "<= 200", met: e2eResult.peak_rss_mb <= 200 },
      two_instances_faster: { target: "two > one", met: two > one },
    },
  };
  await Bun.write("bench/results.json", `${JSON.stringify(results, null, 2)}\n`);
  const rows: [string, string, string, string][] = [
    ["catalog_ratio", String(catalog.catalog_ratio), `${catalog.spread.min}..${catalog.spread.max}`, ">= 0.6"],
    ["webhook_ratio", String(webhooks.webhook_ratio), `${webhooks.spread.min}..${webhooks.spread.max}`, ">= 0.6"],
    ["e2e p50 paid->active (ms)", String(e2eResult.p50_ms), "", "<= 50"],
    ["e2e p99 paid->active (ms)", String(e2eResult.p99_ms), "", "<= 250"],
    ["e2e orders/s", String(e2eResult.orders_per_sec), `at ${E2E_RATE}/s offered`, ""],
    ["e2e duplicates", String(e2eResult.duplicates), "", "0"],
    ["peak RSS (MB)", String(e2eResult.peak_rss_mb), "", "<= 200"],
    ["scale 1 -> 2 instances (orders/s)", `${one} -> ${two}`, `x${round(two / one)}`, "two > one"],
  ];
  console.log("\nfigure                              value          spread/notes         target");
  for (const [name, value, note, target] of rows)
    console.log(`${name.padEnd(36)}${value.padEnd(15)}${note.padEnd(21)}${target}`);
  console.log("\nwritten to bench/results.json");
} finally {
  for (const service of services.reverse()) await service.stop();
  await database.cluster.remove();
}
