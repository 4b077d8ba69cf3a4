/**
 * `npm run bench`: the performance figures, measured side by side in one run on a throwaway
 * PostgreSQL, with load from native generators (wrk, pgbench) on loopback. A full run writes
 * bench/results.json, bench/latency.svg and the README's Performance table; `BENCH_SMOKE=1` runs every
 * figure for a second or two to prove the bench works, and writes only `BENCH_OUT` if given.
 * `BENCH_ONLY=catalog,webhooks` (either or both) measures just those HTTP figures, each against its
 * floor in the same run, prints them and writes only `BENCH_OUT` if given.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { measureBaseline } from "./baseline.ts";
import { measureCatalog, SERVER_CPU } from "./catalog.ts";
import { measureConsole } from "./console.ts";
import { burstThroughput, combineRuns, type DeliveryFigures, offerPaidOrders } from "./delivery.ts";
import { measureDownload } from "./download.ts";
import { latencyChart } from "./latency-chart.ts";
import { comparisonTable, performanceTable, type Results, TARGETS, writeReadmeTable } from "./report.ts";
import { type Service, startDatabase, startMarketplace, startSimulator, WEBHOOK_SECRET } from "./services.ts";
import { ensureWrk, round } from "./tools.ts";
import { measureWebhooks } from "./webhooks.ts";

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
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((name) => name.trim())) : undefined;
const OUT = process.env.BENCH_OUT ?? (SMOKE || ONLY ? undefined : "bench/results.json");
/** A git ref whose bench runs first, for the side-by-side table (see bench/baseline.ts). */
const BASELINE = process.env.BENCH_BASELINE;

const ACCESS_LOG = join(tmpdir(), "marketplace-bench-access.log");

const say = (line: string) => console.log(`[bench] ${line}`);

const baseline = BASELINE && !ONLY ? await measureBaseline(BASELINE, say) : undefined;

const generator = await ensureWrk(say);
const database = await startDatabase();
const services: Service[] = [];
try {
  const sim = await startSimulator();
  services.push(sim);
  say(`PostgreSQL on ${database.url}, simulator on ${sim.url}`);

  // HTTP figures on instances without a job worker, so nothing else competes for their core; the
  // catalog's is pinned to the server core (see bench/catalog.ts). Access lines go to a file.
  const noJobs = { JOBS_ENABLED: "false" };
  /** `measure` against an instance of its own, stopped afterwards. */
  const onFreshHost = async <T>(options: { cpu?: number }, measure: (url: string) => Promise<T>): Promise<T> => {
    const host = await startMarketplace(database, sim.url, noJobs, { logPath: ACCESS_LOG, ...options });
    services.push(host);
    try {
      return await measure(host.url);
    } finally {
      await host.stop();
      services.splice(services.indexOf(host), 1);
    }
  };
  const catalogFigures = () =>
    onFreshHost({ cpu: SERVER_CPU }, (url) =>
      measureCatalog({ marketplaceUrl: url, seconds: SECONDS, reps: REPS, say }),
    );
  const webhookFigures = () =>
    onFreshHost({}, (url) =>
      measureWebhooks({
        marketplaceUrl: url,
        databaseUrl: database.url,
        pgbenchUrl: database.socketUrl,
        webhookSecret: WEBHOOK_SECRET,
        seconds: SECONDS,
        reps: REPS,
        say,
      }),
    );
  if (ONLY) {
    const figures: Record<string, unknown> = { measured_at: new Date().toISOString(), reps: REPS, seconds: SECONDS };
    if (ONLY.has("catalog")) figures.catalog = await catalogFigures();
    if (ONLY.has("webhooks")) figures.webhooks = await webhookFigures();
    console.log(JSON.stringify(figures, null, 2));
    if (OUT) await Bun.write(OUT, `${JSON.stringify(figures, null, 2)}\n`);
    process.exitCode = 0;
  } else {
    const catalog = await catalogFigures();
    const webhooks = await webhookFigures();

    const sql = postgres(database.url, { max: 4, onnotice: () => {} });
    await sql`truncate webhook_inbox, jobs`;
    const [product] = await sql<{ id: string }[]>`select id from products where slug = 'tillpoint-pos'`;
    if (!product) throw new Error("the seeded point-of-sale product is missing");

    const downloadHost = await startMarketplace(database, sim.url, noJobs);
    services.push(downloadHost);
    const download = await measureDownload({
      sql,
      marketplace: downloadHost,
      simUrl: sim.url,
      productId: product.id,
      megabytes: DOWNLOAD_MB,
      say,
    });
    await downloadHost.stop();
    services.splice(services.indexOf(downloadHost), 1);

    const primary = await startMarketplace(database, sim.url);
    services.push(primary);
    const registered = (await (
      await fetch(`${primary.url}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "bench@example.com", password: "bench password", name: "Bench" }),
      })
    ).json()) as { user: { id: string } };
    const orders = { sql, sim, customerId: registered.user.id, productId: product.id };

    const consoleFigures = await measureConsole({ url: primary.url, loads: CONSOLE_LOADS, say });

    // Warm the path at the target rate, then the figure.
    await offerPaidOrders({ ...orders, marketplace: primary, rate: E2E_RATE, seconds: WARMUP_SECONDS });
    const e2eRuns: DeliveryFigures[] = [];
    for (let rep = 1; rep <= E2E_REPS; rep++) {
      const run = await offerPaidOrders({ ...orders, marketplace: primary, rate: E2E_RATE, seconds: E2E_SECONDS });
      e2eRuns.push(run);
      say(
        `e2e run ${rep}: ${run.orders} orders at ${E2E_RATE}/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, RSS ${run.peak_rss_mb} MB`,
      );
    }
    const e2e = combineRuns(e2eRuns);
    say(`e2e: median p50 ${e2e.p50_ms} ms, p99 ${e2e.p99_ms} ms; peak RSS ${e2e.peak_rss_mb} MB`);
    const sweep: DeliveryFigures[] = [];
    for (const rate of SWEEP_RATES) {
      sweep.push(await offerPaidOrders({ ...orders, marketplace: primary, rate, seconds: SWEEP_SECONDS }));
      const last = sweep.at(-1);
      say(
        `sweep ${rate}/s: p50 ${last?.p50_ms} ms, p90 ${last?.p90_ms} ms, p99 ${last?.p99_ms} ms, lost ${last?.lost}`,
      );
    }

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
        count: (SCALE_ORDERS + warmup) * (2 * SCALE_REPS + 1),
      }),
    });
    if (delay.status !== 201) throw new Error(`the simulator refused the latency fault: ${await delay.text()}`);
    await primary.stop();
    services.splice(services.indexOf(primary), 1);
    const slots = { JOB_CONCURRENCY: String(SCALE_CONCURRENCY) };
    const first = await startMarketplace(database, sim.url, slots);
    services.push(first);
    const pairs: { one: number; two: number; speedup: number }[] = [];
    for (let rep = 1; rep <= SCALE_REPS; rep++) {
      await burstThroughput({ ...orders, instances: [first], orders: warmup });
      const one = await burstThroughput({ ...orders, instances: [first], orders: SCALE_ORDERS });
      const second = await startMarketplace(database, sim.url, slots);
      services.push(second);
      await burstThroughput({ ...orders, instances: [first, second], orders: warmup });
      const two = await burstThroughput({ ...orders, instances: [first, second], orders: SCALE_ORDERS });
      await second.stop();
      services.splice(services.indexOf(second), 1);
      pairs.push({ one, two, speedup: round(two / one) });
      say(`scale pair ${rep}: one instance ${one} orders/s, two ${two} orders/s: x${round(two / one)}`);
    }
    const pair = [...pairs].sort((a, b) => a.speedup - b.speedup)[Math.floor((pairs.length - 1) / 2)] ?? pairs[0];
    if (!pair) throw new Error("no scale pair was measured");
    say(`scale: median pair x${pair.speedup}`);
    await sql.end();

    const results: Results = {
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
      },
      catalog,
      webhooks,
      e2e: {
        ...e2e,
        runs: e2eRuns.map(({ p50_ms, p90_ms, p99_ms, max_ms, peak_rss_mb }) => ({
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
      console: consoleFigures,
      download,
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
    const comparison = baseline && BASELINE ? comparisonTable(baseline, results, BASELINE) : undefined;
    const table = comparison ? `${performanceTable(results)}\n\n${comparison}` : performanceTable(results);
    console.log(`\n${table}`);
    if (OUT) {
      const record = baseline ? { ...results, baseline: { ref: BASELINE, ...baseline } } : results;
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
}
