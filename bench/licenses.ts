/**
 * "A vendor's whole install base checks in": `POST /api/licenses/validate` under wrk, beside the raw
 * `Bun.serve` floor (bench/raw-server.ts answering the same bytes), and which process runs out of
 * CPU first. LICENSES licenses of the license-download product go straight into the tables, each with
 * its customer, paid order, record, download entitlement and an activated machine (removed after),
 * keys signed by the marketplace's signer with the key the bench gives it: every key is genuine. wrk
 * (bench/license-load.lua) rotates through ROTATION of them, so no answer is one hot row, and refuses
 * a run with any answer but a 200 saying `"valid":true`. wrk (one thread) is pinned to one core and
 * the raw server to the other, as in the catalog figure; the marketplace and PostgreSQL are not
 * (pinned, the marketplace shared its core with the backends it waits on). `cpu_cores`: each one's
 * CPU seconds a second while wrk runs (/proc; PostgreSQL's postmaster, backends and helpers).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { createLicenseSigner, loadLicenseKeyPair } from "../adapters/licensing/license-signer.ts";
import { startRaw } from "./catalog.ts";
import type { Row } from "./report.ts";
import { type BenchDatabase, cpuMs, LICENSE_SIGNING_KEY, postgresCpuMs, type Service } from "./services.ts";
import { machineBusyMs, median, pinTo, round } from "./tools.ts";

type Cores = { readonly marketplace: number; readonly postgres: number; readonly wrk: number };
export interface LicenseMeasurement {
  /** wrk's settings: connections, keys in rotation of how many, rounds. */
  readonly generator: string;
  readonly validations_per_sec: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly raw_bun_rps: number;
  /** Validations per second over the raw server's answers per second, round by round, the median. */
  readonly raw_floor_ratio: number;
  /** CPU seconds per second while wrk drove the marketplace (medians over the rounds). */
  readonly cpu_cores: Cores;
  /** The rest of the machine's busy time meanwhile, in cores: anything else running skews the figure. */
  readonly other_cores: number;
  /** Which of the three was nearest a full core. */
  readonly saturates: keyof Cores;
  /** Lowest and highest per-round validations per second. */
  readonly spread: { readonly min: number; readonly max: number };
}

const LICENSES = 10_000;
const ROTATION = 4_000;
const CONNECTIONS = 64;
const GENERATOR_CPU = 0;
const SCRIPT = join(import.meta.dir, "license-load.lua");
const MAX = "1000000";
/** The license checks are limited per client address, and the bench is one address for a whole install base. */
const LOAD_ENV = { JOBS_ENABLED: "false", LICENSE_RATE_LIMIT_BURST: MAX, LICENSE_RATE_LIMIT_PER_SECOND: MAX };
const thousands = (value: number) => Math.round(value).toLocaleString("en-US");

/** Writes `count` genuine licenses of the license-download product; returns their keys and customers. */
async function seedLicenses(sql: postgres.Sql, count: number) {
  const [product] = await sql<{ id: string; name: string }[]>`
    select id, name from products where fulfillment_driver = 'license_download' order by slug limit 1`;
  if (!product) throw new Error("the demo catalog has no license-download product");
  const signer = createLicenseSigner(await loadLicenseKeyPair({ privateKeyPem: LICENSE_SIGNING_KEY }));
  const iat = Math.floor(Date.now() / 1000);
  const ids = () => Array.from({ length: count }, () => crypto.randomUUID());
  const [users, orders, items, records, licenses] = [ids(), ids(), ids(), ids(), ids()];
  const keys = await Promise.all(
    licenses.map((lid, i) =>
      signer.sign({ lid, pid: product.id, cid: users[i] as string, typ: "commercial", max: 3, iat, exp: null }),
    ),
  );
  await sql.begin(async (tx) => {
    await tx`insert into users (id, email, name, role, password_hash)
      select u, 'bench-license-' || u || '@example.com', 'Bench licensee', 'customer', 'not a password hash'
      from unnest(${users}::uuid[]) u`;
    await tx`insert into orders (id, customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                                 gateway_environment, metadata)
      select o, c, 'paid', 'USD', 4900, 4900, 4900, 'gateway_a', 'sandbox', '{}'
      from unnest(${orders}::uuid[], ${users}::uuid[]) t(o, c)`;
    await tx`insert into order_items (id, order_id, position, product_id, product_name, variant, payment_type,
                                      license_type, unit_price, quantity, amount, due_today, delivery_model, fulfillment_driver)
      select i, o, 0, ${product.id}, ${product.name}, 'regular', 'one_time', 'commercial', 4900, 1, 4900, 4900,
             'self_hosted_license', 'license_download'
      from unnest(${items}::uuid[], ${orders}::uuid[]) t(i, o)`;
    await tx`insert into fulfillment_records (id, order_id, order_item_id, product_id, customer_id, driver, status)
      select r, o, i, ${product.id}, c, 'license_download', 'active'
      from unnest(${records}::uuid[], ${orders}::uuid[], ${items}::uuid[], ${users}::uuid[]) t(r, o, i, c)`;
    await tx`insert into licenses (id, fulfillment_record_id, customer_id, product_id, license_type, license_key,
                                   max_activations, status)
      select l, r, c, ${product.id}, 'commercial', k, 3, 'active'
      from unnest(${licenses}::uuid[], ${records}::uuid[], ${users}::uuid[], ${keys}::text[]) t(l, r, c, k)`;
    await tx`insert into download_entitlements (fulfillment_record_id, license_id, customer_id, product_id,
                                                artifact_source, version)
      select r, l, c, ${product.id}, 'bench', '2.4.1' from unnest(${records}::uuid[], ${licenses}::uuid[], ${users}::uuid[]) t(r, l, c)`;
    await tx`insert into license_activations (license_id, fingerprint, name, platform)
      select l, 'bench-machine-' || l, 'Till 1', 'linux-x64' from unnest(${licenses}::uuid[]) l`;
  });
  await sql`analyze users, orders, order_items, fulfillment_records, licenses, download_entitlements, license_activations`;
  return { keys, customers: users };
}

async function removeLicenses(sql: postgres.Sql, customers: string[]) {
  await sql.begin(async (tx) => {
    await tx`delete from license_activations a using licenses l
      where a.license_id = l.id and l.customer_id = any(${customers}::uuid[])`;
    await tx`delete from download_entitlements where customer_id = any(${customers}::uuid[])`;
    await tx`delete from licenses where customer_id = any(${customers}::uuid[])`;
    await tx`delete from fulfillment_records where customer_id = any(${customers}::uuid[])`;
    await tx`delete from orders where customer_id = any(${customers}::uuid[])`;
    await tx`delete from users where id = any(${customers}::uuid[])`;
  });
}

type Counts = Record<"ok" | "invalid" | "non200" | "socket_errors" | "duration_us" | "p50_us" | "p99_us", number>;
/** One wrk run, refusing any answer but a valid license; `cores`: each watched process's CPU seconds a second. */
async function wrk(url: string, seconds: number, keysFile: string, watch: Record<string, () => Promise<number>>) {
  const command = [...pinTo(GENERATOR_CPU), "wrk", "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "10s"];
  const proc = Bun.spawn([...command, "-s", SCRIPT, url, "--", keysFile], { stdout: "pipe", stderr: "pipe" });
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const watched = { ...watch, wrk: () => cpuMs(proc.pid) };
  const sample = async () =>
    Object.fromEntries(await Promise.all(Object.entries(watched).map(async ([k, f]) => [k, await f()])));
  // The window leaves out wrk's connecting and its last moment, when some connections have stopped.
  const edge = Math.min(250, (seconds * 1000) / 4);
  await Bun.sleep(edge);
  const [before, from] = [await sample(), performance.now()];
  await Bun.sleep(seconds * 1000 - 2 * edge);
  const [after, to] = [await sample(), performance.now()];
  const [out, err, code] = await output;
  if (code !== 0) throw new Error(`wrk ${url} exited ${code}: ${err || out}`);
  const line = /WRK_RESULT (\{.*\})/.exec(out)?.[1];
  if (!line) throw new Error(`wrk printed no result for ${url}:\n${out}${err}`);
  const r = JSON.parse(line) as Counts;
  const bad = `${r.invalid} not valid, ${r.non200} not 200, ${r.socket_errors} socket errors`;
  if (r.invalid + r.non200 + r.socket_errors > 0 || r.ok === 0) throw new Error(`${url}: ${r.ok} valid, ${bad}`);
  const cores = Object.fromEntries(
    Object.keys(watched).map((k) => [k, round(((after[k] ?? 0) - (before[k] ?? 0)) / (to - from))]),
  );
  return { rps: r.ok / (r.duration_us / 1e6), p50_ms: r.p50_us / 1000, p99_ms: r.p99_us / 1000, cores };
}
type WrkRun = Awaited<ReturnType<typeof wrk>>;

export async function measureLicenses(options: {
  start: (extra: Record<string, string>) => Promise<Service>;
  database: BenchDatabase;
  seconds: number;
  reps: number;
  say: (line: string) => void;
}): Promise<LicenseMeasurement> {
  const { seconds, reps, say } = options;
  const sql = postgres(options.database.url, { max: 2, onnotice: () => {} });
  const host = await options.start(LOAD_ENV);
  const dir = await mkdtemp(join(tmpdir(), "bench-licenses-"));
  let raw: Awaited<ReturnType<typeof startRaw>> | undefined;
  let seeded: Awaited<ReturnType<typeof seedLicenses>> | undefined;
  try {
    seeded = await seedLicenses(sql, LICENSES);
    const keysFile = join(dir, "keys");
    await writeFile(keysFile, `${seeded.keys.slice(0, ROTATION).join("\n")}\n`);
    const url = `${host.url}/api/licenses/validate`;
    const sample = await fetch(url, {
      method: "POST",
      body: JSON.stringify({ key: seeded.keys[0] }),
      headers: { "content-type": "application/json" },
    });
    const body = await sample.text();
    if (sample.status !== 200 || !body.includes('"valid":true')) throw new Error(`a seeded key: ${body}`);
    const headers = Object.fromEntries([...sample.headers].filter(([name]) => !/^(date|content-length)$/.test(name)));
    await writeFile(join(dir, "answer"), body);
    await writeFile(join(dir, "headers.json"), JSON.stringify(headers));
    raw = await startRaw([join(dir, "answer"), "0", join(dir, "headers.json")]);
    const rawUrl = `${raw.url}/api/licenses/validate`;
    const watch = {
      marketplace: () => cpuMs(host.proc.pid),
      postgres: () => postgresCpuMs(options.database),
      machine: machineBusyMs,
    };

    const version = /^wrk \S+/.exec(Bun.spawnSync(["wrk", "-v"]).stdout.toString())?.[0] ?? "wrk";
    const generator =
      `${version}: 1 thread on core ${GENERATOR_CPU}, ${CONNECTIONS} connections rotating ${thousands(ROTATION)} of ` +
      `${thousands(LICENSES)} keys, raw server on the other core, marketplace and PostgreSQL unpinned, ` +
      `${seconds} s per run, ${reps} rounds`;
    say(`licenses: ${generator}; ${body.length} B answer`);
    // Warm-up: after 2 s the first round still measured lowest.
    for (const target of [url, rawUrl]) await wrk(target, Math.min(5, seconds), keysFile, {});
    const runs: WrkRun[] = [];
    const floors: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const app = await wrk(url, seconds, keysFile, watch);
      const floor = await wrk(rawUrl, seconds, keysFile, {});
      runs.push(app);
      floors.push(floor.rps);
      const { machine, ...own } = app.cores;
      const cpu = Object.entries(own).map(([k, v]) => `${k} ${v}`);
      say(
        `licenses round ${rep + 1}: ${thousands(app.rps)} validations/s (p50 ${round(app.p50_ms, 1)} ms, p99 ` +
          `${round(app.p99_ms, 1)} ms) vs ${thousands(floor.rps)} raw (${round(app.rps / floor.rps, 3)}); ` +
          `CPU cores: ${cpu.join(", ")} (the machine ${machine} of ${navigator.hardwareConcurrency}); ` +
          `wrk ${floor.cores.wrk} on the raw server`,
      );
    }
    const mid = (pick: (run: WrkRun) => number, digits = 2) => round(median(runs.map(pick)), digits);
    const names = ["marketplace", "postgres", "wrk"] as const;
    const cpu = Object.fromEntries(names.map((name) => [name, mid((r) => r.cores[name] ?? 0)])) as Cores;
    const saturates = names.reduce((a, b) => (cpu[b] > cpu[a] ? b : a));
    const others = (r: WrkRun) => (r.cores.machine ?? 0) - names.reduce((sum, name) => sum + (r.cores[name] ?? 0), 0);
    const rates = runs.map((r) => r.rps);
    const result: LicenseMeasurement = {
      generator,
      validations_per_sec: mid((r) => r.rps, 0),
      p50_ms: mid((r) => r.p50_ms, 1),
      p99_ms: mid((r) => r.p99_ms, 1),
      raw_bun_rps: round(median(floors), 0),
      raw_floor_ratio: round(median(runs.map((r, i) => r.rps / (floors[i] ?? r.rps))), 3),
      cpu_cores: cpu,
      other_cores: Math.max(0, mid(others)),
      saturates,
      spread: { min: round(Math.min(...rates), 0), max: round(Math.max(...rates), 0) },
    };
    say(
      `licenses: ${thousands(result.validations_per_sec)} validations/s, p99 ${result.p99_ms} ms, ` +
        `${result.raw_floor_ratio} of the raw floor; ${saturates} nearest a full core (${cpu[saturates]})`,
    );
    return result;
  } finally {
    raw?.proc.kill();
    await raw?.proc.exited;
    await host.stop();
    if (seeded) await removeLicenses(sql, seeded.customers);
    await sql.end({ timeout: 1 });
    await rm(dir, { recursive: true, force: true });
  }
}

/** The README table's row, reported, not judged (no target yet): rate, p99, raw ratio, the busiest process. */
export function licenseRow(figure: LicenseMeasurement): Row {
  const { cpu_cores: cpu, saturates } = figure;
  const label = { marketplace: "the marketplace", postgres: "PostgreSQL", wrk: "wrk" } as const;
  const others = (["marketplace", "postgres", "wrk"] as const).filter((name) => name !== saturates);
  return [
    `\`POST /api/licenses/validate\` (${CONNECTIONS} clients, ${thousands(ROTATION)} of ${thousands(LICENSES)} keys): ` +
      "rate, p99, over raw `Bun.serve`; busiest core",
    `${thousands(figure.validations_per_sec)}/s, p99 ${figure.p99_ms} ms; ${figure.raw_floor_ratio} ` +
      `(${thousands(figure.raw_bun_rps)}/s); ${label[saturates]} at ${cpu[saturates]} core ` +
      `(${others.map((name) => `${label[name]} ${cpu[name]}`).join(", ")}` +
      `${figure.other_cores >= 0.05 ? `; other processes ${figure.other_cores}` : ""})`,
    figure.validations_per_sec,
    undefined,
  ];
}
