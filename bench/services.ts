import { readdir, readFile, writeFile } from "node:fs/promises";
import type { Subprocess } from "bun";
import postgres from "postgres";
import { migrate } from "../adapters/postgres/migrate.ts";
import { buildServer } from "../scripts/lib/build-server.ts";
import { freePort, type PostgresCluster, startPostgresCluster } from "../scripts/lib/postgres-cluster.ts";
import { pinTo } from "./tools.ts";

export const SIM_TOKEN = "bench-sim-token-0123456789";
export const WEBHOOK_SECRET = "whsec_bench_0123456789abcdef";
/** The marketplaces' JWT secret, which also keys download links: the download figure signs its own. */
export const JWT_SECRET = "bench-jwt-secret-0123456789-abcdefghijk";
const GATEWAY_B_API_KEY = "sk_test_bench";

export interface Service {
  readonly url: string;
  readonly proc: Subprocess;
  stop(): Promise<void>;
}

async function waitFor(url: string, proc: Subprocess, what: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${what} exited with ${proc.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not ready in 60 s`);
    await Bun.sleep(100);
  }
}

let bundled: Promise<string> | undefined;
/** The marketplace as production runs it: bundled by `npm run build`'s code, once per bench. */
const serverBundle = () => {
  bundled ??= buildServer();
  return bundled;
};

/**
 * `logPath` keeps the process's log lines (stdout) in a file; by default they are dropped. `cpu`
 * pins the process to one core (taskset), as the HTTP figures do with server and load generator.
 */
function spawn(entry: string, env: Record<string, string>, logPath?: string, cpu?: number) {
  // BENCH_CPU_PROF=<dir>: each process writes a CPU profile (.cpuprofile and markdown) there on exit.
  const profile = process.env.BENCH_CPU_PROF;
  const flags = profile ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${profile}`] : [];
  // BENCH_PRELOAD=<module>: each process loads it first (a memory or queue sampler, say).
  const preload = process.env.BENCH_PRELOAD ? ["--preload", process.env.BENCH_PRELOAD] : [];
  const pin = cpu === undefined ? [] : pinTo(cpu);
  return Bun.spawn([...pin, "bun", ...flags, ...preload, entry], {
    env: { ...process.env, ...env },
    stdin: "ignore",
    stdout: logPath ? Bun.file(logPath) : "ignore",
    stderr: "inherit",
  });
}

async function stop(proc: Subprocess) {
  if (proc.exitCode !== null) return;
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => null)]);
  if (exited === null) proc.kill("SIGKILL");
}

export interface BenchDatabase {
  readonly cluster: PostgresCluster;
  /** Over TCP, for the bench's own connections. */
  readonly url: string;
  /**
   * How a marketplace reaches it: through the server's Unix socket (libpq's PGHOST, PGPORT and
   * PGUSER, which postgres.js reads when the URL names no host), as a process on the database's own
   * machine would. Loopback TCP costs each statement a third more CPU on both sides.
   */
  readonly marketplaceEnv: Readonly<Record<string, string>>;
  /** The same socket as a libpq connection string, for pgbench: both sides reach the server alike. */
  readonly socketUrl: string;
}

export async function startDatabase(): Promise<BenchDatabase> {
  const cluster = await startPostgresCluster({ durable: true });
  const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  await admin`create database bench`;
  await admin.end();
  const url = cluster.url.replace(/\/postgres$/, "/bench");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await migrate(sql);
  await sql.end();
  const marketplaceEnv = {
    DATABASE_URL: "postgres:///bench",
    PGHOST: cluster.dataDir,
    PGPORT: String(cluster.port),
    PGUSER: "postgres",
  };
  const socketUrl = `postgresql:///bench?host=${encodeURIComponent(cluster.dataDir)}&port=${cluster.port}&user=postgres`;
  return { cluster, url, marketplaceEnv, socketUrl };
}

export async function startSimulator(): Promise<Service> {
  const port = await freePort();
  const proc = spawn("provider-sim/main.ts", {
    PROVIDER_SIM_PORT: String(port),
    PROVIDER_SIM_SMTP_PORT: "0",
    PROVIDER_SIM_TOKEN: SIM_TOKEN,
    PROVIDER_SIM_CONTROL: "true",
    GATEWAY_B_SANDBOX_API_KEY: GATEWAY_B_API_KEY,
    GATEWAY_B_SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
    LOG_LEVEL: "warn",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`, proc, "provider simulator");
  return { url, proc, stop: () => stop(proc) };
}

/** An Ed25519 signing key as PKCS#8 PEM, as production requires one to be configured. */
async function licenseSigningKeyPem(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
  // A key made for this run only; the PEM label is assembled so no private key literal sits in the tree.
  const label = ["PRIVATE", "KEY"].join(" ");
  return `-----BEGIN ${label}-----\n${der.match(/.{1,64}/g)?.join("\n")}\n-----END ${label}-----\n`;
}
export const LICENSE_SIGNING_KEY = await licenseSigningKeyPem();

/**
 * A marketplace process in production configuration (real auth and signatures, secrets from the
 * environment, the demo catalog seeded on purpose); its log lines go to `logPath`, or are dropped.
 * `bundle` runs another build of the server (`buildServer(outfile)`), to set two versions side by side.
 */
export async function startMarketplace(
  database: BenchDatabase,
  simUrl: string,
  extra: Record<string, string> = {},
  options: { readonly logPath?: string; readonly cpu?: number; readonly bundle?: string } = {},
): Promise<Service> {
  const port = await freePort();
  const proc = spawn(
    options.bundle ?? (await serverBundle()),
    {
      NODE_ENV: "production",
      SEED_DEMO_CATALOG: "true",
      LICENSE_SIGNING_KEY,
      PORT: String(port),
      HOST: "127.0.0.1",
      ALLOW_PRIVATE_PROVIDER_URLS: "true",
      ...database.marketplaceEnv,
      DATABASE_POOL_MAX: "20",
      LOG_LEVEL: "info",
      JWT_SECRET,
      SECRETS_KEY: "bench-secrets-key-0123456789-abcdefghij",
      DATA_DIR: `/tmp/mkt-bench-${port}`,
      GATEWAY_B_SANDBOX_BASE_URL: `${simUrl}/gateway_b`,
      GATEWAY_B_SANDBOX_API_KEY: GATEWAY_B_API_KEY,
      GATEWAY_B_SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DEMO_PROVIDER_BASE_URL: simUrl,
      SECRET_PROVIDER_SIM_TOKEN: SIM_TOKEN,
      TICK_ENABLED: "false",
      // The bench offers more webhooks from one address than any gateway sends; the limiter still runs.
      WEBHOOK_RATE_LIMIT_BURST: "10000000",
      WEBHOOK_RATE_LIMIT_PER_SECOND: "10000000",
      // The soak prices carts and opens checkouts from one address, as many customers would from many.
      CHECKOUT_RATE_LIMIT_BURST: "10000000",
      CHECKOUT_RATE_LIMIT_PER_SECOND: "10000000",
      ...extra,
    },
    options.logPath,
    options.cpu,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/ready`, proc, "marketplace");
  return { url, proc, stop: () => stop(proc) };
}

/** A figure of /proc/<pid>/status in MB: `VmRSS` (resident now) or `VmHWM` (the most resident since the mark). */
async function statusMb(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1];
  if (kb === undefined) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(kb) / 1024;
}

/**
 * CPU time a process has used so far, user and system, in milliseconds (/proc/<pid>/stat, in
 * clock ticks of 10 ms). Unlike latency, it barely moves when the machine is busy with other work.
 */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time the database's PostgreSQL has used so far, in milliseconds: the postmaster with the
 * backends it has reaped (`cutime`, `cstime`), and every backend and helper still running.
 */
export async function postgresCpuMs(database: BenchDatabase): Promise<number> {
  const postmaster = Number((await readFile(`${database.cluster.dataDir}/postmaster.pid`, "utf8")).split("\n")[0]);
  const fieldsOf = async (pid: number | string) => {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
  };
  const own = await fieldsOf(postmaster);
  let ticks = (own[11] ?? 0) + (own[12] ?? 0) + (own[13] ?? 0) + (own[14] ?? 0);
  for (const entry of await readdir("/proc")) {
    const fields = /^\d+$/.test(entry) ? await fieldsOf(entry).catch(() => undefined) : undefined;
    if (fields?.[1] === postmaster) ticks += (fields[11] ?? 0) + (fields[12] ?? 0);
  }
  return ticks * 10;
}

/** Resident set size of a process in MB, from /proc. */
export const rssMb = (pid: number) => statusMb(pid, "VmRSS");

/**
 * The exact peak of a process's resident memory over a span: the kernel's high-water mark
 * (`VmHWM`), moved down to the current size at the start (writing 5 to /proc/<pid>/clear_refs,
 * Linux 4.0 and later). Where that cannot be done, the highest of samples taken every 50 ms, which
 * can miss a spike between two of them.
 */
export async function watchPeakRss(pid: number): Promise<{ stop(): Promise<number> }> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, "5");
    return { stop: () => statusMb(pid, "VmHWM") };
  } catch (error) {
    console.warn(`[bench] peak RSS sampled every 50 ms: /proc/${pid}/clear_refs not writable (${error})`);
    let peak = await rssMb(pid);
    const sampler = setInterval(() => void rssMb(pid).then((mb) => (peak = Math.max(peak, mb))), 50);
    sampler.unref();
    return {
      async stop() {
        clearInterval(sampler);
        return Math.max(peak, await rssMb(pid));
      },
    };
  }
}
