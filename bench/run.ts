/**
 * `npm run bench`: the performance figures, measured side by side in one run on a throwaway
 * PostgreSQL, with load from native generators (wrk, pgbench) on loopback. A full run writes
 * bench/results.json, bench/latency.svg and the README's Performance table; `BENCH_SMOKE=1` runs every
 * figure for a second or two to prove the bench works, and writes only `BENCH_OUT` if given.
 * `BENCH_ONLY=catalog,webhooks,licenses,exports` (any of them) measures just those HTTP figures, each against
 * its floor in the same run, prints them and writes only `BENCH_OUT` if given. `BENCH_BASELINE=<git ref>`
 * measures that ref's build beside this code's, figure by figure (see bench/baseline.ts), and adds
 * the side-by-side table.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { prepareBaseline } from "./baseline.ts";
import { type CatalogMeasurement, combineCatalogRounds, measureCatalog, SERVER_CPU } from "./catalog.ts";
import { type ConsoleFigures, measureConsole } from "./console.ts";
import { burstThroughput, combineRuns, type DeliveryFigures, offerPaidOrders } from "./delivery.ts";
import { type DownloadFigures, measureDownload, medianDownload } from "./download.ts";
import { measureExports } from "./exports.ts";
import { latencyChart } from "./latency-chart.ts";
import { measureLicenses } from "./licenses.ts";
import { comparisonTable, performanceTable, type Results, TARGETS, writeReadmeTable } from "./report.ts";
import { type Service, startDatabase, startMarketplace, startSimulator, WEBHOOK_SECRET } from "./services.ts";
import { ensureWrk, round } from "./tools.ts";
import { combineWebhookRounds, measureWebhooks, type WebhookMeasurement } from "./webhooks.ts";

const SMOKE = process.env.BENCH_SMOKE === "1";
const setting = (name: string, full: number, smoke: number) => Number(process.env[name] ?? (SMOKE ? smoke : full));
const REPS = setting("BENCH_REPS", 3, 1);
const SECONDS = setting("BENCH_SECONDS", 5, 1);
const E2E_RATE = setting("BENCH_E2E_RATE", 200, 200);
const E2E_SECONDS = setting("BENCH_E2E_SECONDS", 10, 1);
/** Runs of the delivery figure, and pairs of the scale figure, each reported as their median. */
const E2E_REPS = Math.max(1, setting("BENCH_E2E_REPS", 3, 1));
const SCALE_REPS = Math.max(1, setting("BENCH_SCALE_REPS", 3, 1));
/** Orders offered at the target rate before the figure, unmeasured: a running shop's path is warm (JIT, pools, caches). */
const WARMUP_SECONDS = setting("BENCH_WARMUP_SECONDS", 3, 1);
const SWEEP_SECONDS = setting("BENCH_SWEEP_SECONDS", 4, 1);
const SWEEP_RATES = (process.env.BENCH_SWEEP_RATES ?? (SMOKE ? "50,400" : "50,100,150,200,250,300,350,400"))
  .split(",")
  .map(Number);
const SCALE_ORDERS = setting("BENCH_SCALE_ORDERS", 1200, 100);
const PROVIDER_LATENCY_MS = setting("BENCH_PROVIDER_LATENCY_MS", 25, 25);
/**
 * Job slots per instance in the scale figure. With the provider answering in 25 ms an instance is
 * bound by its slots, which is what a second instance adds; two instances at the default 4 would
 * reach the CPU ceiling of a two-core machine that also runs PostgreSQL, the simulator and the load,
 * and the figure would measure the machine (see docs/decisions.md).
 */
const SCALE_CONCURRENCY = setting("BENCH_SCALE_CONCURRENCY", 2, 2);
const CONSOLE_LOADS = setting("BENCH_CONSOLE_LOADS", 60, 3);
const DOWNLOAD_MB = setting("BENCH_DOWNLOAD_MB", 200, 20);
/**
 * Downloads per build, the figure their median: one download's peak depends on when the collector
 * ran, and 8 downloads of one build read 13 to 39 MB (docs/performance.md).
 */
const DOWNLOAD_REPS = setting("BENCH_DOWNLOAD_REPS", 7, 1);
/** Paid orders, each with a payment, streamed as `orders.csv` and `payments.csv` (bench/exports.ts). */
const EXPORT_ROWS = setting("BENCH_EXPORT_ROWS", 100_000, 2_000);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((name) => name.trim())) : undefined;
const OUT = process.env.BENCH_OUT ?? (SMOKE || ONLY ? undefined : "bench/results.json");
/** A git ref measured beside this code, figure by figure, for the side-by-side table (see bench/baseline.ts). */
const BASELINE = process.env.BENCH_BASELINE;

const ACCESS_LOG = join(tmpdir(), "marketplace-bench-access.log");

const say = (line: string) => console.log(`[bench] ${line}`);

/** A server build the bench measures: this code's bundle, or the baseline's. */
interface Build {
  readonly name: string;
  readonly bundle?: string;
}
const THIS_CODE: Build = { name: "this code" };

const baselineBuild = BASELINE && !ONLY ? await prepareBaseline(BASELINE, say) : undefined;
const builds: readonly Build[] =
  BASELINE && baselineBuild ? [{ name: BASELINE, bundle: baselineBuild.bundle }, THIS_CODE] : [THIS_CODE];
/**
 * Each figure is measured for every build before the next figure, so a build's figure and the other's
 * are minutes apart, not a whole bench; the first section starts with the baseline, the next with this
 * code, and so on, so that neither build always measures first.
 */
let sectionsSoFar = 0;
function inTurn(): readonly Build[] {
  return sectionsSoFar++ % 2 === 0 ? builds : [...builds].reverse();
}
const tag = (build: Build) => (builds.length > 1 ? `${build.name}: ` : "");

const generator = await ensureWrk(say);
const database = await startDatabase();
const services: Service[] = [];
try {
  const sim = await startSimulator();
  services.push(sim);
  say(`PostgreSQL on ${database.url}, simulator on ${sim.url}`);

  /** Starts a marketplace of `build`, kept in `services` until `stop`ped. */
  const start = async (
    build: Build,
    extra: Record<string, string> = {},
    options: { logPath?: string; cpu?: number } = {},
  ) => {
    const host = await startMarketplace(database, sim.url, extra, { ...options, bundle: build.bundle });
    services.push(host);
    return {
      ...host,
      stop: async () => {
        await host.stop();
        services.splice(services.indexOf(host), 1);
      },
    };
  };
  // HTTP figures on instances without a job worker, so nothing else competes for their core; the
  // catalog's is pinned to the server core (see bench/catalog.ts). Access lines go to a file.
  const noJobs = { JOBS_ENABLED: "false" };
  /** Each build's figure of one section, measured in turn. */
  const eachBuild = async <T>(measure: (build: Build) => Promise<T>): Promise<Map<Build, T>> => {
    const figures = new Map<Build, T>();
    for (const build of inTurn()) figures.set(build, await measure(build));
    return figures;
  };
  /**
   * Each build's rounds of one figure, `reps` of them (`REPS` unless said): every build's instance is up the whole time
   * (none runs jobs, so an idle one costs nothing) and the builds take turns round by round, so the
   * machine's drift (a pgbench floor that moved by a quarter between minutes) falls on all alike.
   * `combine` makes one figure of a build's rounds.
   */
  const roundByRound = async <T>(
    options: { logPath?: string; cpu?: number },
    measure: (build: Build, host: Service) => Promise<T>,
    combine: (rounds: T[]) => T,
    reps = REPS,
  ): Promise<Map<Build, T>> => {
    const hosts = new Map<Build, Service>();
    try {
      for (const build of builds) hosts.set(build, await start(build, noJobs, options));
      const rounds = new Map<Build, T[]>(builds.map((build) => [build, []]));
      for (let rep = 0; rep < reps; rep++) {
        for (const build of inTurn()) rounds.get(build)?.push(await measure(build, hosts.get(build) as Service));
      }
      return new Map([...rounds].map(([build, values]) => [build, combine(values)]));
    } finally {
      for (const host of hosts.values()) await host.stop();
    }
  };

  const catalogFigures = () =>
    roundByRound(
      { logPath: ACCESS_LOG, cpu: SERVER_CPU },
      (build, host) =>
        measureCatalog({
          marketplaceUrl: host.url,
          seconds: SECONDS,
          reps: 1,
          say: (line) => say(`${tag(build)}${line}`),
          marketplacePid: host.proc.pid,
        }),
      combineCatalogRounds,
    );
  const webhookFigures = () =>
    roundByRound(
      { logPath: ACCESS_LOG },
      (build, host) =>
        measureWebhooks({
          marketplaceUrl: host.url,
          databaseUrl: database.url,
          pgbenchUrl: database.socketUrl,
          webhookSecret: WEBHOOK_SECRET,
          seconds: SECONDS,
          reps: 1,
          say: (line) => say(`${tag(build)}${line}`),
        }),
      combineWebhookRounds,
    );

  // This code's only: a baseline may predate license validation.
  const licenseFigure = () =>
    measureLicenses({
      start: (extra) => start(THIS_CODE, extra, { logPath: ACCESS_LOG }), // not pinned: see bench/licenses.ts
      database,
      seconds: SECONDS,
      reps: REPS,
      say,
    });

  // This code's only: a baseline may predate the exports. Run last in a full bench: its rows stay.
  const exportFigures = async () => {
    const host = await start(THIS_CODE, noJobs);
    const sql = postgres(database.url, { max: 2, onnotice: () => {} });
    try {
      const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
      if (!product) throw new Error("the seeded point-of-sale product is missing");
      return await measureExports({ sql, marketplace: host, productId: product.id, rows: EXPORT_ROWS, say });
    } finally {
      await sql.end();
      await host.stop();
    }
  };

  if (ONLY) {
    const figures: Record<string, unknown> = { measured_at: new Date().toISOString(), reps: REPS, seconds: SECONDS };
    if (ONLY.has("catalog")) figures.catalog = (await catalogFigures()).get(THIS_CODE);
    if (ONLY.has("webhooks")) figures.webhooks = (await webhookFigures()).get(THIS_CODE);
    if (ONLY.has("licenses")) figures.licenses = await licenseFigure();
    if (ONLY.has("exports")) figures.exports = await exportFigures();
    console.log(JSON.stringify(figures, null, 2));
    if (OUT) await Bun.write(OUT, `${JSON.stringify(figures, null, 2)}\n`);
    process.exitCode = 0;
  } else {
    const catalog = await catalogFigures();
    const webhooks = await webhookFigures();
    const licenses = await licenseFigure();

    const sql = postgres(database.url, { max: 4, onnotice: () => {} });
    await sql`truncate webhook_inbox, jobs`;
    const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
    if (!product) throw new Error("the seeded point-of-sale product is missing");

    const download = await roundByRound<DownloadFigures>(
      {},
      (build, host) =>
        measureDownload({
          sql,
          marketplace: host,
          simUrl: sim.url,
          productId: product.id,
          megabytes: DOWNLOAD_MB,
          say: (line) => say(`${tag(build)}${line}`),
        }),
      medianDownload,
      DOWNLOAD_REPS,
    );

    /**
     * The customer every paid order is for, written straight into the database: the builds share
     * it, and a newer build's schema may refuse what an older build's registration writes (an
     * `on conflict` target the newer migrations replaced). Nobody signs in as it.
     */
    let buyer: { readonly customerId: string } | undefined;
    const ordersFor = async (host: Service) => {
      if (!buyer) {
        const [row] = await sql<{ id: string }[]>`
          insert into users (email, name, role, password_hash)
          values ('bench@example.com', 'Bench', 'customer', 'not a password hash') returning id`;
        if (!row) throw new Error("seeding the bench's buyer returned no row");
        buyer = { customerId: row.id };
      }
      return { sql, sim, customerId: buyer.customerId, productId: product.id, marketplace: host };
    };
    /** `measure` against an instance of `build` with its job worker, stopped afterwards. */
    const withWorker = async <T>(build: Build, measure: (host: Service) => Promise<T>) => {
      const host = await start(build);
      try {
        return await measure(host);
      } finally {
        await host.stop();
      }
    };

    const consoles = await eachBuild<ConsoleFigures>((build) =>
      withWorker(build, (host) =>
        measureConsole({ url: host.url, loads: CONSOLE_LOADS, say: (line) => say(`${tag(build)}${line}`) }),
      ),
    );

    // Paid → active: each run on a fresh instance of its build, warmed at the target rate first
    // (unmeasured: a running shop's path is warm), the builds taking turns run by run.
    const e2eRuns = new Map<Build, DeliveryFigures[]>(builds.map((build) => [build, []]));
    for (let rep = 1; rep <= E2E_REPS; rep++) {
      for (const build of inTurn()) {
        const run = await withWorker(build, async (host) => {
          const orders = await ordersFor(host);
          await offerPaidOrders({ ...orders, rate: E2E_RATE, seconds: WARMUP_SECONDS });
          return offerPaidOrders({ ...orders, rate: E2E_RATE, seconds: E2E_SECONDS });
        });
        e2eRuns.get(build)?.push(run);
        say(
          `${tag(build)}e2e run ${rep}: ${run.orders} orders at ${E2E_RATE}/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, RSS ${run.peak_rss_mb} MB`,
        );
      }
    }
    for (const [build, runs] of e2eRuns) {
      const e2e = combineRuns(runs);
      say(`${tag(build)}e2e: median p50 ${e2e.p50_ms} ms, p99 ${e2e.p99_ms} ms; peak RSS ${e2e.peak_rss_mb} MB`);
    }

    const sweeps = await eachBuild((build) =>
      withWorker(build, async (host) => {
        const orders = await ordersFor(host);
        const sweep: DeliveryFigures[] = [];
        for (const rate of SWEEP_RATES) {
          const point = await offerPaidOrders({ ...orders, rate, seconds: SWEEP_SECONDS });
          sweep.push(point);
          say(
            `${tag(build)}sweep ${rate}/s: p50 ${point.p50_ms} ms, p90 ${point.p90_ms} ms, p99 ${point.p99_ms} ms, lost ${point.lost}`,
          );
        }
        return sweep;
      }),
    );

    // Scale: the provider answers onboarding after PROVIDER_LATENCY_MS, as across a network. Each
    // figure comes after a burst of its own, unmeasured, so neither counts an instance's cold start;
    // the second instance is stopped after each pair, so the next "one" has no other worker.
    const warmup = Math.max(1, Math.round(SCALE_ORDERS / 6));
    const delay = await fetch(`${sim.url}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        route: "onboard",
        mode: "delay",
        delay_ms: PROVIDER_LATENCY_MS,
        count: (SCALE_ORDERS + warmup) * (2 * SCALE_REPS + 1) * builds.length,
      }),
    });
    if (delay.status !== 201) throw new Error(`the simulator refused the latency fault: ${await delay.text()}`);
    const slots = { JOB_CONCURRENCY: String(SCALE_CONCURRENCY) };
    const scale = await eachBuild(async (build) => {
      const first = await start(build, slots);
      try {
        const orders = await ordersFor(first);
        const pairs: { one: number; two: number; speedup: number }[] = [];
        for (let rep = 1; rep <= SCALE_REPS; rep++) {
          await burstThroughput({ ...orders, instances: [first], orders: warmup });
          const one = await burstThroughput({ ...orders, instances: [first], orders: SCALE_ORDERS });
          const second = await start(build, slots);
          try {
            await burstThroughput({ ...orders, instances: [first, second], orders: warmup });
            const two = await burstThroughput({ ...orders, instances: [first, second], orders: SCALE_ORDERS });
            pairs.push({ one, two, speedup: round(two / one) });
            say(
              `${tag(build)}scale pair ${rep}: one instance ${one} orders/s, two ${two} orders/s: x${round(two / one)}`,
            );
          } finally {
            await second.stop();
          }
        }
        const pair = [...pairs].sort((a, b) => a.speedup - b.speedup)[Math.floor((pairs.length - 1) / 2)];
        if (!pair) throw new Error("no scale pair was measured");
        say(`${tag(build)}scale: median pair x${pair.speedup}`);
        return { pair, pairs };
      } finally {
        await first.stop();
      }
    });
    await sql.end();
    const exports = await exportFigures();

    const resultsOf = (build: Build): Results => {
      const figure = <T>(figures: Map<Build, T>): T => {
        const value = figures.get(build);
        if (value === undefined) throw new Error(`${build.name} has no figure`);
        return value;
      };
      const runs = figure(e2eRuns);
      const e2e = combineRuns(runs);
      const sweep = figure(sweeps);
      const { pair, pairs } = figure(scale);
      return {
        measured_at: new Date().toISOString(),
        machine: { cpus: navigator.hardwareConcurrency, bun: Bun.version },
        generator,
        settings: {
          smoke: SMOKE,
          reps: REPS,
          seconds: SECONDS,
          e2e_seconds: E2E_SECONDS,
          e2e_reps: E2E_REPS,
          scale_reps: SCALE_REPS,
          sweep_seconds: SWEEP_SECONDS,
          download_reps: DOWNLOAD_REPS,
          export_rows: EXPORT_ROWS,
        },
        catalog: figure<CatalogMeasurement>(catalog),
        webhooks: figure<WebhookMeasurement>(webhooks),
        e2e: {
          ...e2e,
          runs: runs.map(({ p50_ms, p90_ms, p99_ms, max_ms, peak_rss_mb }) => ({
            p50_ms,
            p90_ms,
            p99_ms,
            max_ms,
            peak_rss_mb,
          })),
        },
        latency_by_load: sweep.map((s) => ({
          rate: s.rate_per_sec,
          p50: s.p50_ms,
          p90: s.p90_ms,
          p99: s.p99_ms,
          lost: s.lost,
        })),
        console: figure(consoles),
        download: figure(download),
        licenses: build === THIS_CODE ? licenses : undefined,
        exports: build === THIS_CODE ? exports : undefined,
        scale: {
          orders: SCALE_ORDERS,
          provider_latency_ms: PROVIDER_LATENCY_MS,
          job_concurrency: SCALE_CONCURRENCY,
          one_instance_orders_per_sec: pair.one,
          two_instances_orders_per_sec: pair.two,
          speedup: pair.speedup,
          pairs,
        },
      };
    };
    const results = resultsOf(THIS_CODE);
    const baselineFigures = builds.length > 1 && builds[0] ? resultsOf(builds[0]) : undefined;
    const comparison = baselineFigures && BASELINE ? comparisonTable(baselineFigures, results, BASELINE) : undefined;
    const table = comparison ? `${performanceTable(results)}\n\n${comparison}` : performanceTable(results);
    console.log(`\n${table}`);
    if (OUT) {
      const record = baselineFigures ? { ...results, baseline: { ref: BASELINE, ...baselineFigures } } : results;
      await Bun.write(OUT, `${JSON.stringify({ ...record, targets: TARGETS }, null, 2)}\n`);
      say(`written to ${OUT}`);
    }
    if (!SMOKE && process.env.BENCH_SKIP_README !== "1") {
      const points = results.latency_by_load;
      await Bun.write(
        "bench/latency.svg",
        latencyChart(
          points,
          { p50: TARGETS.e2e_p50_ms.max, p99: TARGETS.e2e_p99_ms.max },
          "Paid → active latency by offered load",
        ),
      );
      await writeReadmeTable("README.md", table);
      say("bench/latency.svg and the README's Performance table updated");
    }
  }
} finally {
  for (const service of services.reverse()) await service.stop();
  await database.cluster.remove();
  await baselineBuild?.remove();
}
