/**
 * webhook_ratio: signed webhooks the marketplace accepts per second (each answered 2xx only once
 * stored), over the transactions per second of the naive intake, one transaction per event
 * (bench/naive-webhook.sql), run by pgbench on the same database in the same run.
 *
 * Load: wrk with bench/webhook-load.lua over pre-signed, unique gateway_b
 * `checkout.session.completed` events generated just before each run, so the generator spends no
 * CPU on signing while it measures. Both sides get the same offer: 32 connections from 2 threads
 * (pgbench -c 32 -j 2; one wrk thread measured the same within the noise). The runs alternate
 * (wrk, pgbench) for `reps` rounds after a warm-up of each as long as a round (at most 5 s: the
 * first round after a start measured lowest); the results are medians, the spread is that of the
 * per-round ratios.
 *
 * The marketplace must run with JOBS_ENABLED=false: the jobs of both sides are then left alone.
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { checkoutCompletedBody } from "./paid-orders.ts";
import { median, round } from "./tools.ts";

export interface WebhookMeasureOptions {
  readonly marketplaceUrl: string;
  readonly databaseUrl: string;
  /** How pgbench connects: as the marketplace does (its socket), so the comparison is like for like. */
  readonly pgbenchUrl: string;
  readonly webhookSecret: string;
  readonly seconds: number;
  readonly reps: number;
  readonly say: (line: string) => void;
}

export interface WebhookMeasurement {
  readonly generator: string;
  readonly accepted_per_sec: number;
  readonly pgbench_tps: number;
  readonly webhook_ratio: number;
  readonly spread: { readonly min: number; readonly max: number };
}

/** As many connections as pgbench has clients: the same concurrency offered to both sides. */
const CONNECTIONS = 32;
const WRK_THREADS = 2;
const PGBENCH_THREADS = 2;
const LUA_SCRIPT = join(import.meta.dir, "webhook-load.lua");
const NAIVE_SCRIPT = join(import.meta.dir, "naive-webhook.sql");
/**
 * Signed events generated per second of a run: this for the warm-up, then three times the warm-up's
 * rate (at least MIN_EVENTS_PER_SECOND). A run that uses them all up is repeated with twice as many.
 */
const WARM_UP_EVENTS_PER_SECOND = 30_000;
const MIN_EVENTS_PER_SECOND = 10_000;

/** `name` from the newest `<versionsDir>/<version>/bin`, else from PATH. */
function findBinary(name: string, versionsDir?: string): string {
  if (versionsDir && existsSync(versionsDir)) {
    const versions = readdirSync(versionsDir)
      .filter((version) => existsSync(join(versionsDir, version, "bin", name)))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(versionsDir, versions[0], "bin", name);
  }
  const onPath = Bun.which(name);
  if (!onPath) throw new Error(`${name} not found on PATH${versionsDir ? ` nor in ${versionsDir}/*/bin` : ""}`);
  return onPath;
}

/** `wrk 4.1.0`, `pgbench 15.x`: the first line a tool prints about its version. */
function versionOf(binary: string): string {
  const out = Bun.spawnSync([binary, binary.endsWith("wrk") ? "-v" : "--version"], { stdout: "pipe", stderr: "pipe" });
  const line = `${out.stdout.toString()}${out.stderr.toString()}`.split("\n")[0] ?? "";
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(line)?.[1];
  const name = binary.split("/").at(-1) ?? binary;
  return version ? `${name} ${version}` : name;
}

async function run(command: string[]): Promise<string> {
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}: ${err.trim() || out.trim()}`);
  return out;
}

/**
 * Writes `count` signed events, each with an event id never used before, spread over one file per
 * wrk thread (`<prefix>.<thread>`), and signs them now: the run that follows stays well inside
 * the gateway's 300 s tolerance.
 */
async function writeSignedEvents(prefix: string, tag: string, count: number, secret: string): Promise<void> {
  const t = Math.floor(Date.now() / 1000);
  const perThread = Math.ceil(count / WRK_THREADS);
  for (let thread = 0; thread < WRK_THREADS; thread++) {
    const writer = Bun.file(`${prefix}.${thread}`).writer({ highWaterMark: 1 << 20 });
    for (let i = 0; i < perThread; i++) {
      const eventId = `evt_wrk_${tag}_${thread}_${i}`;
      const body = checkoutCompletedBody(eventId, crypto.randomUUID(), t, eventId);
      const v1 = new Bun.CryptoHasher("sha256", secret).update(`${t}.${body}`).digest("hex");
      writer.write(`t=${t},v1=${v1}\t${body}\n`);
    }
    await writer.end();
  }
}

interface WrkResult {
  readonly duration_us: number;
  readonly requests: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly exhausted: number;
  readonly sent: number;
  readonly connect_errors: number;
  readonly read_errors: number;
  readonly write_errors: number;
  readonly timeouts: number;
  readonly p50_us: number;
  readonly p99_us: number;
}

async function wrkOnce(
  wrk: string,
  url: string,
  secret: string,
  seconds: number,
  events: number,
  dir: string,
  tag: string,
): Promise<WrkResult> {
  const prefix = join(dir, `events-${tag}`);
  await writeSignedEvents(prefix, tag, events, secret);
  try {
    const out = await run([
      wrk,
      "-t",
      String(WRK_THREADS),
      "-c",
      String(CONNECTIONS),
      "-d",
      `${seconds}s`,
      "--timeout",
      "10s",
      "-s",
      LUA_SCRIPT,
      url,
      "--",
      prefix,
    ]);
    const line = out.split("\n").find((l) => l.startsWith("WRK_RESULT "));
    if (!line) throw new Error(`wrk printed no result:\n${out}`);
    return JSON.parse(line.slice("WRK_RESULT ".length)) as WrkResult;
  } finally {
    for (let thread = 0; thread < WRK_THREADS; thread++) await rm(`${prefix}.${thread}`, { force: true });
  }
}

/** One wrk run; repeated with twice the events when it ran out. Throws on any answer that is not 2xx. */
async function acceptedPerSecond(
  context: { wrk: string; url: string; secret: string; dir: string; runId: string; perSecond: { value: number } },
  seconds: number,
  label: string,
): Promise<{ rate: number; result: WrkResult }> {
  for (let attempt = 0; ; attempt++) {
    const events = Math.ceil(context.perSecond.value * seconds) + 2_000;
    const result = await wrkOnce(
      context.wrk,
      context.url,
      context.secret,
      seconds,
      events,
      context.dir,
      `${context.runId}_${label}_${attempt}`,
    );
    const errors = result.connect_errors + result.read_errors + result.write_errors + result.timeouts;
    if (result.non2xx > 0 || errors > 0)
      throw new Error(
        `webhooks: ${result.non2xx} answers not 2xx and ${errors} socket errors/time-outs in ${result.requests} requests`,
      );
    if (result.exhausted === 0) return { rate: result.ok / (result.duration_us / 1e6), result };
    if (attempt >= 3) throw new Error(`webhooks: wrk ran out of its ${events} events`);
    context.perSecond.value *= 2;
  }
}

async function pgbenchTps(pgbench: string, databaseUrl: string, seconds: number): Promise<number> {
  const out = await run([
    pgbench,
    "-n",
    "-c",
    String(CONNECTIONS),
    "-j",
    String(PGBENCH_THREADS),
    "-T",
    String(seconds),
    "-f",
    NAIVE_SCRIPT,
    databaseUrl,
  ]);
  const failed = /number of failed transactions: (\d+)/.exec(out);
  if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} failed transactions\n${out}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(tps[1]);
}

/** A checkpoint before each run, so neither side pays for the other's dirty buffers. */
async function settle(sql: postgres.Sql) {
  await sql`checkpoint`.catch(() => {});
}

export async function measureWebhooks(options: WebhookMeasureOptions): Promise<WebhookMeasurement> {
  const { marketplaceUrl, databaseUrl, pgbenchUrl, webhookSecret, seconds, reps, say } = options;
  const wrk = findBinary("wrk");
  const pgbench = findBinary("pgbench", "/usr/lib/postgresql");
  const dir = await mkdtemp(join(tmpdir(), "bench-webhooks-"));
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const context = {
    wrk,
    url: `${marketplaceUrl}/api/webhooks/gateway_b`,
    secret: webhookSecret,
    dir,
    runId: crypto.randomUUID().slice(0, 8),
    perSecond: { value: WARM_UP_EVENTS_PER_SECOND },
  };
  try {
    const warmUp = Math.min(5, seconds);
    const warm = await acceptedPerSecond(context, warmUp, "warm");
    context.perSecond.value = Math.max(MIN_EVENTS_PER_SECOND, Math.ceil(warm.rate * 3));
    await pgbenchTps(pgbench, pgbenchUrl, warmUp);
    const accepted: number[] = [];
    const tps: number[] = [];
    const ratios: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      await settle(sql);
      const { rate, result } = await acceptedPerSecond(context, seconds, String(rep));
      await settle(sql);
      const naive = await pgbenchTps(pgbench, pgbenchUrl, seconds);
      accepted.push(rate);
      tps.push(naive);
      ratios.push(rate / naive);
      say(
        `webhook rep ${rep + 1}: ${Math.round(rate)} accepted/s (p50 ${round(result.p50_us / 1000, 1)} ms, ` +
          `p99 ${round(result.p99_us / 1000, 1)} ms) vs ${Math.round(naive)} naive tps: x${round(rate / naive)}`,
      );
    }
    return {
      generator:
        `${versionOf(wrk)} (${WRK_THREADS} threads, ${CONNECTIONS} connections, bench/webhook-load.lua, pre-signed unique ` +
        `gateway_b events) vs ${versionOf(pgbench)} (-c ${CONNECTIONS} -j ${PGBENCH_THREADS}, bench/naive-webhook.sql), ` +
        `${reps} x ${seconds} s`,
      accepted_per_sec: round(median(accepted), 0),
      pgbench_tps: round(median(tps), 0),
      webhook_ratio: round(median(ratios)),
      spread: { min: round(Math.min(...ratios)), max: round(Math.max(...ratios)) },
    };
  } finally {
    await sql.end({ timeout: 1 });
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * One figure from rounds measured apart (each a `measureWebhooks` of one round, its own pgbench
 * floor beside it, taking turns with another build's): the medians, and the ratios' spread.
 */
export function combineWebhookRounds(rounds: readonly WebhookMeasurement[]): WebhookMeasurement {
  const first = rounds[0];
  if (!first) throw new Error("no webhook round to combine");
  const ratios = rounds.map((r) => r.webhook_ratio);
  return {
    generator: first.generator.replace(/, \d+ x (\d+) s$/, `, ${rounds.length} x $1 s`),
    accepted_per_sec: round(median(rounds.map((r) => r.accepted_per_sec)), 0),
    pgbench_tps: round(median(rounds.map((r) => r.pgbench_tps)), 0),
    webhook_ratio: round(median(ratios)),
    spread: { min: Math.min(...ratios), max: Math.max(...ratios) },
  };
}
