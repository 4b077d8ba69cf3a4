/**
 * The public catalog against the runtime's floor: wrk drives `GET /api/products` and
 * `GET /api/products/{slug}` on the marketplace and, alternately in the same run, raw `Bun.serve`
 * processes (bench/raw-server.ts) answering the same bytes with the same headers.
 *
 * On a two-core machine the server under test is pinned to one core and wrk (one thread) to the
 * other. wrk pipelines its requests (`PIPELINE` per connection write): unpipelined, wrk spends a
 * whole core to drive a raw Bun.serve, so the floor would be the generator's. Pipelined, every
 * server here saturates its core while wrk uses part of its own: the share of its core wrk used
 * (`generator_cpu_share`) is the proof that the generator is not the limit, and the rate it would
 * reach on its whole core against the cheapest server, a raw Bun.serve answering 204, is
 * `generator_ceiling_rps` (requests per second divided by that share). A third raw server, run
 * with `--contract`, also does the per-request work the catalog's contract asks of every answer
 * (read the target and two headers, a fresh request id, a duration) but writes no access line:
 * `contract_floor_ratio`, its rate over the raw one, is the most any implementation of the contract
 * can reach before its access line. Installs nothing: `wrk` must be on PATH (`taskset` too for the
 * pinning, which a machine with one core goes without).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { cpuMs } from "./services.ts";
import { median, pinTo, round } from "./tools.ts";

export interface CatalogMeasurement {
  readonly generator: string;
  /** Median of the per-round ratios marketplace / raw for `GET /api/products`. */
  readonly catalog_ratio: number;
  /** The same for `GET /api/products/{slug}`. */
  readonly product_ratio: number;
  readonly marketplace_rps: number;
  readonly product_rps: number;
  readonly raw_bun_rps: number;
  readonly raw_product_rps: number;
  /** What wrk would drive on its whole core: the 204 server's rate over wrk's share of its core. */
  readonly generator_ceiling_rps: number;
  /**
   * Median per-round ratio of the contract's floor for the list (bench/raw-server.ts --contract:
   * the target, two headers, a fresh request id and a duration, no access line) over the raw figure.
   */
  readonly contract_floor_ratio: number;
  readonly contract_rps: number;
  /** The share of its core wrk used while it drove the marketplace's list. */
  readonly generator_cpu_share: number;
  /** Lowest and highest per-round `catalog_ratio`. */
  readonly spread: { readonly min: number; readonly max: number };
  /**
   * The marketplace's own CPU time per list answer in µs (/proc, user and system), when its pid is
   * known. Unlike a rate, it hardly moves when the machine lends the core to something else.
   */
  readonly list_cpu_us?: number;
  /** The raw server's CPU time per answer of the same bytes, in µs. */
  readonly raw_cpu_us?: number;
}

const CONNECTIONS = 50;
/** Requests written at once per connection. */
const PIPELINE = 16;
/** The cores of a two-core machine: the server under test on one, the load generator on the other. */
export const SERVER_CPU = 1;
const GENERATOR_CPU = 0;
/** Headers that differ per response by nature; the raw server's Bun adds its own. */
const PER_RESPONSE = new Set(["date", "content-length"]);

/**
 * Pipelines `PIPELINE` requests per write (wrk counts each answer), and prints wrk's own counts as
 * one JSON line, so nothing is read off its human-readable report.
 */
const SUMMARY_SCRIPT = `
init = function(args)
  local batch = {}
  for i = 1, ${PIPELINE} do batch[i] = wrk.format(nil) end
  pipelined = table.concat(batch)
end
request = function() return pipelined end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_SUMMARY {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout))
end
`;

interface WrkRun {
  readonly rps: number;
  readonly requests: number;
  /** wrk's CPU time over the run's duration: the share of its core it used. */
  readonly cpuShare: number;
}

/** One wrk run on its core; throws on any socket error or any answer that is not 2xx/3xx. */
async function wrk(url: string, seconds: number, script: string): Promise<WrkRun> {
  const command = [...pinTo(GENERATOR_CPU), "wrk", "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`];
  const proc = Bun.spawn([...command, "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`wrk ${url} exited ${code}: ${err || out}`);
  const line = /WRK_SUMMARY (\{.*\})/.exec(out)?.[1];
  if (!line) throw new Error(`wrk printed no summary for ${url}:\n${out}${err}`);
  const summary = JSON.parse(line) as Record<"requests" | "duration_us" | "status", number> &
    Record<"connect" | "read" | "write" | "timeout", number>;
  const nonOk = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = summary.connect + summary.read + summary.write + summary.timeout;
  if (nonOk > 0 || summary.status > 0 || socket > 0) {
    throw new Error(`${url}: ${nonOk} non-2xx/3xx answers, ${summary.status} 4xx/5xx, ${socket} socket errors`);
  }
  if (summary.requests === 0) throw new Error(`${url}: wrk completed no request`);
  const cpu = proc.resourceUsage()?.cpuTime.total ?? 0n;
  return {
    rps: summary.requests / (summary.duration_us / 1e6),
    requests: summary.requests,
    cpuShare: Number(cpu) / summary.duration_us,
  };
}

/** Runs `drive`, and records the CPU time `pid` spent per answer of it in µs, when `pid` is known. */
async function cpuPerAnswer(pid: number | undefined, drive: () => Promise<WrkRun>, into: number[]): Promise<WrkRun> {
  if (pid === undefined) return drive();
  const before = await cpuMs(pid);
  const run = await drive();
  into.push((((await cpuMs(pid)) - before) * 1000) / run.requests);
  return run;
}

/** `wrk -v` prints its version first and exits 1 (it prints the usage too). */
async function wrkVersion(): Promise<string> {
  const proc = Bun.spawn(["wrk", "-v"], { stdout: "pipe", stderr: "pipe" });
  const [out] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return /^wrk \S+/.exec(out)?.[0] ?? "wrk";
}

/** One raw server (bench/raw-server.ts), pinned to the server core: resolves once it listens (it prints its port). */
export async function startRaw(args: string[]): Promise<{ url: string; proc: Subprocess }> {
  const entry = new URL("./raw-server.ts", import.meta.url).pathname;
  const pinned = [...pinTo(SERVER_CPU), process.execPath, entry, ...args];
  const proc = Bun.spawn(pinned, { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 30_000;
  while (!text.includes("\n")) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
    if (chunk === null || chunk.done) {
      proc.kill();
      throw new Error(`bench/raw-server.ts ${args.join(" ")} did not start`);
    }
    text += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  return { url: `http://127.0.0.1:${Number(text.trim())}`, proc };
}

/** An answer of the marketplace as the raw server will replay it: the body and the headers that are not per response. */
async function capture(url: string) {
  const response = await fetch(url);
  const body = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !PER_RESPONSE.has(name)));
  return { body, headers };
}

export async function measureCatalog(options: {
  marketplaceUrl: string;
  seconds: number;
  reps: number;
  say: (line: string) => void;
  /** The marketplace's process, to read its CPU time per answer. */
  marketplacePid?: number;
}): Promise<CatalogMeasurement> {
  const { marketplaceUrl, seconds, reps, say, marketplacePid } = options;
  const listUrl = `${marketplaceUrl}/api/products`;
  const first = (await (await fetch(listUrl)).json()) as { items?: { slug: string }[] };
  const slug = first.items?.[0]?.slug;
  if (!slug) throw new Error(`${listUrl} lists no product to measure`);
  const productUrl = `${marketplaceUrl}/api/products/${encodeURIComponent(slug)}`;
  // The first request of each fills the cache; the captured answers are the cached ones.
  await fetch(productUrl).then((response) => response.arrayBuffer());
  const list = await capture(listUrl);
  const product = await capture(productUrl);

  const dir = await mkdtemp(join(tmpdir(), "bench-catalog-"));
  const raws: Subprocess[] = [];
  try {
    const script = join(dir, "summary.lua");
    await writeFile(script, SUMMARY_SCRIPT);
    const rawOf = async (
      name: string,
      answer: { body: Uint8Array; headers: Record<string, string> },
      ...flags: string[]
    ) => {
      await writeFile(join(dir, `${name}.body`), answer.body);
      await writeFile(join(dir, `${name}.headers.json`), JSON.stringify(answer.headers));
      const raw = await startRaw([join(dir, `${name}.body`), "0", join(dir, `${name}.headers.json`), ...flags]);
      raws.push(raw.proc);
      return raw.url;
    };
    const rawList = `${await rawOf("list", list)}/api/products`;
    const rawListPid = raws.at(-1)?.pid;
    const contractList = `${await rawOf("list", list, "--contract")}/api/products`;
    const rawProduct = `${await rawOf("product", product)}/api/products/${encodeURIComponent(slug)}`;
    const empty = await startRaw(["--empty", "0"]);
    raws.push(empty.proc);

    const generator =
      `${await wrkVersion()}: 1 thread on core ${GENERATOR_CPU}, ${CONNECTIONS} connections, ${PIPELINE} requests ` +
      `pipelined, servers on core ${SERVER_CPU}, ${seconds} s per run, ${reps} rounds`;
    say(`catalog: ${generator}; ${list.body.length} B list, ${product.body.length} B product (${slug})`);

    const warm = Math.min(1, seconds);
    for (const url of [listUrl, rawList, contractList, productUrl, rawProduct, empty.url]) await wrk(url, warm, script);

    const rounds = {
      app: [] as number[],
      raw: [] as number[],
      contract: [] as number[],
      appProduct: [] as number[],
      rawProduct: [] as number[],
    };
    const ceiling: number[] = [];
    const shares: number[] = [];
    const ratios: number[] = [];
    const productRatios: number[] = [];
    const contractRatios: number[] = [];
    const listCpu: number[] = [];
    const rawCpu: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const app = await cpuPerAnswer(marketplacePid, () => wrk(listUrl, seconds, script), listCpu);
      const raw = (await cpuPerAnswer(rawListPid, () => wrk(rawList, seconds, script), rawCpu)).rps;
      const contract = (await wrk(contractList, seconds, script)).rps;
      const appProduct = (await wrk(productUrl, seconds, script)).rps;
      const rawProductRps = (await wrk(rawProduct, seconds, script)).rps;
      const floor = await wrk(empty.url, seconds, script);
      rounds.app.push(app.rps);
      rounds.raw.push(raw);
      rounds.contract.push(contract);
      rounds.appProduct.push(appProduct);
      rounds.rawProduct.push(rawProductRps);
      ceiling.push(floor.rps / floor.cpuShare);
      shares.push(app.cpuShare);
      ratios.push(app.rps / raw);
      productRatios.push(appProduct / rawProductRps);
      contractRatios.push(contract / raw);
      say(
        `catalog round ${rep + 1}: list ${Math.round(app.rps)} vs ${Math.round(raw)} req/s (${round(app.rps / raw)}), ` +
          `the contract's floor ${Math.round(contract)} req/s (${round(contract / raw)}), ` +
          `product ${Math.round(appProduct)} vs ${Math.round(rawProductRps)} req/s (${round(appProduct / rawProductRps)}); ` +
          `wrk used ${Math.round(app.cpuShare * 100)}% of its core on the list, ${Math.round(floor.cpuShare * 100)}% ` +
          `for ${Math.round(floor.rps)} req/s of 204s: ceiling ${Math.round(floor.rps / floor.cpuShare)} req/s` +
          (marketplacePid === undefined
            ? ""
            : `; ${round(listCpu.at(-1) ?? 0, 2)} vs ${round(rawCpu.at(-1) ?? 0, 2)} µs of CPU per list answer`),
      );
    }
    const result: CatalogMeasurement = {
      generator,
      catalog_ratio: round(median(ratios)),
      product_ratio: round(median(productRatios)),
      marketplace_rps: round(median(rounds.app), 0),
      product_rps: round(median(rounds.appProduct), 0),
      raw_bun_rps: round(median(rounds.raw), 0),
      raw_product_rps: round(median(rounds.rawProduct), 0),
      contract_floor_ratio: round(median(contractRatios)),
      contract_rps: round(median(rounds.contract), 0),
      generator_ceiling_rps: round(median(ceiling), 0),
      generator_cpu_share: round(median(shares)),
      spread: { min: round(Math.min(...ratios)), max: round(Math.max(...ratios)) },
      ...(listCpu.length > 0 ? { list_cpu_us: round(median(listCpu), 2) } : {}),
      ...(rawCpu.length > 0 ? { raw_cpu_us: round(median(rawCpu), 2) } : {}),
    };
    say(
      `catalog: list ratio ${result.catalog_ratio} (${result.spread.min}..${result.spread.max}), product ratio ` +
        `${result.product_ratio} (${round(Math.min(...productRatios))}..${round(Math.max(...productRatios))}), ` +
        `the contract's floor ${result.contract_floor_ratio}`,
    );
    return result;
  } finally {
    for (const proc of raws) proc.kill();
    await Promise.all(raws.map((proc) => proc.exited));
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * One figure from rounds measured apart (each a `measureCatalog` of one round, taking turns with
 * another build's): each field's median over the rounds, the spread of the list ratio across them.
 */
export function combineCatalogRounds(rounds: readonly CatalogMeasurement[]): CatalogMeasurement {
  const first = rounds[0];
  if (!first) throw new Error("no catalog round to combine");
  const mid = (pick: (entry: CatalogMeasurement) => number, digits?: number) => round(median(rounds.map(pick)), digits);
  const ratios = rounds.map((r) => r.catalog_ratio);
  return {
    generator: first.generator.replace(/\d+ rounds$/, `${rounds.length} rounds`),
    catalog_ratio: mid((r) => r.catalog_ratio),
    product_ratio: mid((r) => r.product_ratio),
    marketplace_rps: mid((r) => r.marketplace_rps, 0),
    product_rps: mid((r) => r.product_rps, 0),
    raw_bun_rps: mid((r) => r.raw_bun_rps, 0),
    raw_product_rps: mid((r) => r.raw_product_rps, 0),
    contract_floor_ratio: mid((r) => r.contract_floor_ratio),
    contract_rps: mid((r) => r.contract_rps, 0),
    generator_ceiling_rps: mid((r) => r.generator_ceiling_rps, 0),
    generator_cpu_share: mid((r) => r.generator_cpu_share),
    spread: { min: Math.min(...ratios), max: Math.max(...ratios) },
    ...(rounds.every((r) => r.list_cpu_us !== undefined) ? { list_cpu_us: mid((r) => r.list_cpu_us ?? 0, 2) } : {}),
    ...(rounds.every((r) => r.raw_cpu_us !== undefined) ? { raw_cpu_us: mid((r) => r.raw_cpu_us ?? 0, 2) } : {}),
  };
}
