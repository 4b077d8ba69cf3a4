/**
 * Two or more builds of the server side by side in one run: `catalog_ratio` and `webhook_ratio`,
 * each against its floor measured in the same round, the builds taking turns round by round so the
 * machine's drift falls on all of them alike. For a change measured against the code before it:
 *
 *   BENCH_BUNDLES=before=dist-test-a/marketplace.js,after=dist/marketplace.js bun bench/compare.ts
 *
 * (bundles made by `buildServer(outfile)` of scripts/lib/build-server.ts). `BENCH_ONLY`
 * (`catalog,webhooks` by default; `e2e` adds paid → active at `BENCH_E2E_RATE` orders/s for
 * `BENCH_E2E_SECONDS`, each build's instance alone with the job worker, with its CPU time per order;
 * `idle` adds the resident memory of each build started alone, after 50 catalog reads; `statements`
 * adds the statements PostgreSQL ran and the job claims among them per paid order, over 100 orders
 * at 10/s with `log_statement = 'all'`, each build once; `console` adds the console's first load, 20
 * loads a round as bench/run.ts takes them; `download` adds the resident memory a build grows by
 * while it streams a `BENCH_DOWNLOAD_MB` archive, every build's instance up, one download each a round), `BENCH_REPS` and
 * `BENCH_SECONDS` as in bench/run.ts; prints each figure's median and spread.
 */
import { readFile, truncate } from "node:fs/promises";
import { resolve } from "node:path";
import postgres from "postgres";
import { measureCatalog, SERVER_CPU } from "./catalog.ts";
import { measureConsole } from "./console.ts";
import { offerPaidOrders } from "./delivery.ts";
import { measureDownload } from "./download.ts";
import {
  cpuMs,
  rssMb,
  type Service,
  startDatabase,
  startMarketplace,
  startSimulator,
  WEBHOOK_SECRET,
} from "./services.ts";
import { ensureWrk, median, round } from "./tools.ts";
import { measureWebhooks } from "./webhooks.ts";

const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const E2E_RATE = Number(process.env.BENCH_E2E_RATE ?? 200);
const E2E_SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 10);
const DOWNLOAD_MB = Number(process.env.BENCH_DOWNLOAD_MB ?? 200);
const ONLY = new Set((process.env.BENCH_ONLY ?? "catalog,webhooks").split(",").map((name) => name.trim()));
const builds = (process.env.BENCH_BUNDLES ?? "")
  .split(",")
  .filter(Boolean)
  .map((entry) => {
    const [name, path] = entry.includes("=") ? entry.split("=", 2) : [entry, entry];
    return { name: name as string, bundle: resolve(path as string) };
  });
if (builds.length === 0) throw new Error("BENCH_BUNDLES names no build: name=path/marketplace.js,...");

const say = (line: string) => console.log(`[compare] ${line}`);

interface Buyer {
  readonly customerId: string;
  readonly productId: string;
}

/**
 * The seeded point-of-sale product and the customer every paid order is for, written straight into
 * the database as bench/run.ts does: the builds share it, and an older build may register customers
 * differently. Nobody signs in as it.
 */
async function aBuyer(sql: postgres.Sql): Promise<Buyer> {
  const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
  if (!product) throw new Error("the seeded point-of-sale product is missing");
  const [user] = await sql<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values ('compare@example.com', 'Compare', 'customer', 'not a password hash') returning id`;
  if (!user) throw new Error("seeding the buyer returned no row");
  return { customerId: user.id, productId: product.id };
}

/**
 * Every statement PostgreSQL ran while `log_statement = 'all'` (the bench's own included, the same
 * for every build), and the job claims among them.
 */
function countStatements(serverLog: string): { all: number; claims: number } {
  const entries = serverLog.split(/\n(?=\S)/).filter((entry) => /LOG: {2}(statement|execute [^:]*):/.test(entry));
  return {
    all: entries.length,
    claims: entries.filter((entry) => entry.includes("with expired as materialized")).length,
  };
}

const spread = (values: number[]) =>
  `${round(median(values))} (${round(Math.min(...values))}..${round(Math.max(...values))}; ${values.map((v) => round(v)).join(", ")})`;

await ensureWrk(say);
const database = await startDatabase();
const services: Service[] = [];
const figures: Record<string, Record<string, number[]>> = {};
const record = (build: string, figure: string, value: number) => {
  const byFigure = figures[build] ?? {};
  byFigure[figure] = [...(byFigure[figure] ?? []), value];
  figures[build] = byFigure;
};
try {
  const sim = await startSimulator();
  services.push(sim);
  const noJobs = { JOBS_ENABLED: "false" };
  const log = (name: string) => `/tmp/marketplace-compare-${name}.log`;
  for (const figure of ["catalog", "webhooks"].filter((name) => ONLY.has(name))) {
    const hosts: Service[] = [];
    for (const { name, bundle } of builds) {
      const cpu = figure === "catalog" ? SERVER_CPU : undefined;
      hosts.push(await startMarketplace(database, sim.url, noJobs, { logPath: log(name), cpu, bundle }));
    }
    services.push(...hosts);
    for (let rep = 1; rep <= REPS; rep++) {
      // Each round in another order, so no build always follows the same one.
      const order = builds.map((_, i) => (i + rep) % builds.length);
      for (const i of order) {
        const { name } = builds[i] as (typeof builds)[number];
        const url = (hosts[i] as Service).url;
        const quiet = () => {};
        if (figure === "catalog") {
          const pid = (hosts[i] as Service).proc.pid;
          const c = await measureCatalog({
            marketplaceUrl: url,
            seconds: SECONDS,
            reps: 1,
            say: quiet,
            marketplacePid: pid,
          });
          record(name, "catalog_ratio", c.catalog_ratio);
          if (c.list_cpu_us !== undefined && c.raw_cpu_us !== undefined) {
            record(name, "list_cpu_us", c.list_cpu_us);
            record(name, "cpu_ratio", round(c.raw_cpu_us / c.list_cpu_us));
          }
          record(name, "product_ratio", c.product_ratio);
          record(name, "catalog_rps", c.marketplace_rps);
          record(name, "raw_rps", c.raw_bun_rps);
          say(
            `round ${rep} ${name}: catalog_ratio ${c.catalog_ratio} (${c.marketplace_rps} vs ${c.raw_bun_rps} req/s), ` +
              `product_ratio ${c.product_ratio}, ${c.list_cpu_us} vs ${c.raw_cpu_us} µs of CPU per answer`,
          );
        } else {
          const w = await measureWebhooks({
            marketplaceUrl: url,
            databaseUrl: database.url,
            pgbenchUrl: database.socketUrl,
            webhookSecret: WEBHOOK_SECRET,
            seconds: SECONDS,
            reps: 1,
            say: quiet,
          });
          record(name, "webhook_ratio", w.webhook_ratio);
          record(name, "webhooks_per_sec", w.accepted_per_sec);
          record(name, "pgbench_tps", w.pgbench_tps);
          say(`round ${rep} ${name}: webhook_ratio ${w.webhook_ratio} (${w.accepted_per_sec} vs ${w.pgbench_tps}/s)`);
        }
      }
    }
    for (const host of hosts) {
      await host.stop();
      services.splice(services.indexOf(host), 1);
    }
  }
  if (ONLY.has("console")) {
    const hosts: Service[] = [];
    for (const { name, bundle } of builds) {
      hosts.push(await startMarketplace(database, sim.url, noJobs, { logPath: log(name), bundle }));
    }
    services.push(...hosts);
    for (let rep = 1; rep <= REPS; rep++) {
      for (const i of builds.map((_, i) => (i + rep) % builds.length)) {
        const { name } = builds[i] as (typeof builds)[number];
        const figures = await measureConsole({ url: (hosts[i] as Service).url, loads: 20, say: () => {} });
        record(name, "console_first_load_p50_ms", figures.first_load_p50_ms);
        say(
          `round ${rep} ${name}: console first load p50 ${figures.first_load_p50_ms} ms (max ${figures.first_load_max_ms})`,
        );
      }
    }
    for (const host of hosts) {
      await host.stop();
      services.splice(services.indexOf(host), 1);
    }
  }
  if (ONLY.has("download")) {
    const hosts: Service[] = [];
    for (const { name, bundle } of builds) {
      hosts.push(await startMarketplace(database, sim.url, noJobs, { logPath: log(name), bundle }));
    }
    services.push(...hosts);
    // The first marketplace to start seeded the demo catalog.
    const sql = postgres(database.url, { max: 2, onnotice: () => {} });
    const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
    if (!product) throw new Error("the seeded point-of-sale product is missing");
    for (let rep = 1; rep <= REPS; rep++) {
      for (const i of builds.map((_, i) => (i + rep) % builds.length)) {
        const { name } = builds[i] as (typeof builds)[number];
        const host = hosts[i] as Service;
        const figures = await measureDownload({
          sql,
          marketplace: host,
          simUrl: sim.url,
          productId: product.id,
          megabytes: DOWNLOAD_MB,
          say: () => {},
        });
        record(name, "download_rss_growth_mb", figures.rss_growth_mb);
        record(name, "download_mb_per_sec", figures.mb_per_sec);
        say(
          `round ${rep} ${name}: RSS +${figures.rss_growth_mb} MB (${figures.rss_before_mb} → ${figures.peak_rss_mb}) at ${figures.mb_per_sec} MB/s`,
        );
      }
    }
    for (const host of hosts) {
      await host.stop();
      services.splice(services.indexOf(host), 1);
    }
    await sql.end();
  }
  if (ONLY.has("idle")) {
    for (let rep = 1; rep <= REPS; rep++) {
      for (const { name, bundle } of builds) {
        const host = await startMarketplace(database, sim.url, noJobs, { bundle, logPath: log(name) });
        services.push(host);
        for (let i = 0; i < 50; i++) await (await fetch(`${host.url}/api/products`)).arrayBuffer();
        await Bun.sleep(1_000);
        const mb = await rssMb(host.proc.pid);
        record(name, "idle_rss_mb", mb);
        say(`round ${rep} ${name}: idle RSS ${round(mb, 1)} MB`);
        await host.stop();
        services.splice(services.indexOf(host), 1);
      }
    }
  }
  /** Registered by the first marketplace that sells, for every later one. */
  let buyer: Buyer | undefined;
  if (ONLY.has("e2e")) {
    const sql = postgres(database.url, { max: 4, onnotice: () => {} });
    await sql`truncate webhook_inbox, jobs`;
    for (let rep = 1; rep <= REPS; rep++) {
      for (const i of builds.map((_, i) => (i + rep) % builds.length)) {
        const { name, bundle } = builds[i] as (typeof builds)[number];
        const host = await startMarketplace(database, sim.url, {}, { bundle, logPath: log(name) });
        services.push(host);
        buyer ??= await aBuyer(sql);
        const orders = { sql, sim, ...buyer, marketplace: host, rate: E2E_RATE };
        await offerPaidOrders({ ...orders, seconds: 3 });
        const cpuBefore = await cpuMs(host.proc.pid);
        const run = await offerPaidOrders({ ...orders, seconds: E2E_SECONDS });
        const cpuPerOrder = ((await cpuMs(host.proc.pid)) - cpuBefore) / run.orders;
        record(name, "cpu_ms_per_order", cpuPerOrder);
        record(name, "e2e_p50_ms", run.p50_ms);
        record(name, "e2e_p99_ms", run.p99_ms);
        record(name, "peak_rss_mb", run.peak_rss_mb);
        say(
          `round ${rep} ${name}: paid → active p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, RSS ${run.peak_rss_mb} MB, lost ${run.lost}, ${round(cpuPerOrder)} ms CPU per order`,
        );
        await host.stop();
        services.splice(services.indexOf(host), 1);
      }
    }
    await sql.end();
  }
  if (ONLY.has("statements")) {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const logFile = `${database.cluster.dataDir}/server.log`;
    for (const { name, bundle } of builds) {
      await sql`truncate webhook_inbox, jobs`;
      const host = await startMarketplace(database, sim.url, {}, { bundle, logPath: log(name) });
      services.push(host);
      buyer ??= await aBuyer(sql);
      const orders = { sql, sim, ...buyer, marketplace: host, rate: 10 };
      await offerPaidOrders({ ...orders, seconds: 2 });
      await sql`alter system set log_statement = 'all'`;
      await sql`select pg_reload_conf()`;
      await truncate(logFile);
      const run = await offerPaidOrders({ ...orders, seconds: 10 });
      await sql`alter system reset log_statement`;
      await sql`select pg_reload_conf()`;
      const counted = countStatements(await readFile(logFile, "utf8"));
      record(name, "statements_per_order", counted.all / run.orders);
      record(name, "job_claims_per_order", counted.claims / run.orders);
      say(`${name}: ${counted.all} statements and ${counted.claims} job claims over ${run.orders} paid orders`);
      await host.stop();
      services.splice(services.indexOf(host), 1);
    }
    await sql.end();
  }
  for (const { name } of builds) {
    for (const [figure, values] of Object.entries(figures[name] ?? {})) say(`${name} ${figure}: ${spread(values)}`);
  }
} finally {
  for (const service of services.reverse()) await service.stop();
  await database.cluster.remove();
}
