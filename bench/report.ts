import type { measureCatalog } from "./catalog.ts";
import type { ConsoleFigures } from "./console.ts";
import type { DeliveryFigures } from "./delivery.ts";
import type { DownloadFigures } from "./download.ts";
import { type ExportFigures, exportRows } from "./exports.ts";
import { type LicenseMeasurement, licenseRow } from "./licenses.ts";
import type { measureWebhooks } from "./webhooks.ts";

export interface Results {
  readonly measured_at: string;
  readonly machine: { readonly cpus: number; readonly bun: string };
  /** The HTTP load generator. */
  readonly generator: string;
  readonly settings: Readonly<Record<string, number | boolean>>;
  readonly catalog: Awaited<ReturnType<typeof measureCatalog>>;
  readonly webhooks: Awaited<ReturnType<typeof measureWebhooks>>;
  /** The median of `runs` (see `combineRuns`). */
  readonly e2e: DeliveryFigures & {
    readonly runs?: readonly Pick<DeliveryFigures, "p50_ms" | "p90_ms" | "p99_ms" | "max_ms" | "peak_rss_mb">[];
  };
  readonly latency_by_load: readonly { rate: number; p50: number; p90: number; p99: number; lost: number }[];
  readonly console: ConsoleFigures;
  /** Older results have none. */
  readonly download?: DownloadFigures;
  /** License validation under load (bench/licenses.ts); older results and a baseline's have none. */
  readonly licenses?: LicenseMeasurement;
  /** CSV exports streamed (bench/exports.ts); older results and a baseline's have none. */
  readonly exports?: Readonly<Record<"orders" | "payments", ExportFigures>>;
  readonly scale: {
    readonly orders: number;
    readonly provider_latency_ms: number;
    /** JOB_CONCURRENCY of each instance. */
    readonly job_concurrency: number;
    readonly one_instance_orders_per_sec: number;
    readonly two_instances_orders_per_sec: number;
    readonly speedup: number;
    /** Every pair measured; the figure is the median pair's. */
    readonly pairs?: readonly { readonly one: number; readonly two: number; readonly speedup: number }[];
  };
}

/** Each figure's target: `min` or `max` bounds the value. */
export const TARGETS = {
  catalog_ratio: { min: 0.85 },
  product_ratio: { min: 0.85 },
  generator_headroom: { min: 1.5 },
  webhook_ratio: { min: 1.3 },
  e2e_p50_ms: { max: 5 },
  e2e_p99_ms: { max: 25 },
  duplicates: { max: 0 },
  lost: { max: 0 },
  peak_rss_mb: { max: 120 },
  speedup: { min: 1.8 },
  console_first_load_ms: { max: 300 },
  console_first_bundle_kb: { max: 150 },
  download_rss_growth_mb: { max: 32 },
  export_rss_growth_mb: { max: 64 },
} as const;

type Bound = { readonly min: number } | { readonly max: number };
const met = (value: number, bound: Bound) => ("min" in bound ? value >= bound.min : value <= bound.max);
const targetText = (bound: Bound, unit = "") => ("min" in bound ? `>= ${bound.min}${unit}` : `<= ${bound.max}${unit}`);
const thousands = (value: number) => Math.round(value).toLocaleString("en-US");
/** The runs' range after a median, when there were several. */
const spread = (values: readonly number[] | undefined) =>
  values && values.length > 1 ? `; runs ${Math.min(...values)}..${Math.max(...values)}` : "";

/**
 * One figure: its name, its value as the table writes it, the number the target bounds, the target
 * (none: reported, not judged); `rig` marks a figure of the bench's own load generator, not of the code.
 */
export type Row = [name: string, value: string, number: number, bound: Bound | undefined, unit?: string, rig?: "rig"];

function figureRows(results: Results): Row[] {
  const { catalog, webhooks, e2e, scale } = results;
  const best = Math.max(catalog.marketplace_rps, catalog.product_rps);
  const headroom = Math.round((catalog.generator_ceiling_rps / best) * 100) / 100;
  const runs = e2e.runs?.length ?? 1;
  const runsNote = runs > 1 ? ` (median of ${runs} runs)` : "";
  const pairsNote = (scale.pairs?.length ?? 1) > 1 ? `; median of ${scale.pairs?.length} pairs` : "";
  const rows: Row[] = [
    [
      "`catalog_ratio`: `GET /api/products` over a raw `Bun.serve` of the same bytes",
      `${catalog.catalog_ratio} (${thousands(catalog.marketplace_rps)} vs ${thousands(catalog.raw_bun_rps)} req/s)`,
      catalog.catalog_ratio,
      TARGETS.catalog_ratio,
    ],
    [
      "`GET /api/products/{slug}` over a raw `Bun.serve` of the same bytes",
      `${catalog.product_ratio} (${thousands(catalog.product_rps)} vs ${thousands(catalog.raw_product_rps)} req/s)`,
      catalog.product_ratio,
      TARGETS.product_ratio,
    ],
    [
      `generator (${results.generator}, one core) ceiling over the marketplace's best`,
      `${headroom} (${thousands(catalog.generator_ceiling_rps)} req/s; ${Math.round(catalog.generator_cpu_share * 100)}% of its core used on the catalog)`,
      headroom,
      TARGETS.generator_headroom,
      "",
      "rig",
    ],
    [
      "`webhook_ratio`: signed webhooks accepted/s over `pgbench` running the naive transaction (32 clients)",
      `${webhooks.webhook_ratio} (${thousands(webhooks.accepted_per_sec)} vs ${thousands(webhooks.pgbench_tps)}/s)`,
      webhooks.webhook_ratio,
      TARGETS.webhook_ratio,
    ],
    [
      `paid → active p50 at ${e2e.rate_per_sec} orders/s${runsNote}`,
      `${e2e.p50_ms} ms${spread(e2e.runs?.map((run) => run.p50_ms))}`,
      e2e.p50_ms,
      TARGETS.e2e_p50_ms,
      " ms",
    ],
    [
      `paid → active p99 at ${e2e.rate_per_sec} orders/s${runsNote}`,
      `${e2e.p99_ms} ms${spread(e2e.runs?.map((run) => run.p99_ms))}`,
      e2e.p99_ms,
      TARGETS.e2e_p99_ms,
      " ms",
    ],
    ["duplicated deliveries", String(e2e.duplicates), e2e.duplicates, TARGETS.duplicates],
    ["lost deliveries", String(e2e.lost), e2e.lost, TARGETS.lost],
    [
      `marketplace peak RSS${runs > 1 ? " (highest of the runs)" : ""}`,
      `${e2e.peak_rss_mb} MB`,
      e2e.peak_rss_mb,
      TARGETS.peak_rss_mb,
      " MB",
    ],
    [
      `two instances over one (provider answering in ${scale.provider_latency_ms} ms, ${scale.job_concurrency} job slots each${pairsNote})`,
      `${scale.speedup} (${scale.one_instance_orders_per_sec} → ${scale.two_instances_orders_per_sec} orders/s)${spread(scale.pairs?.map((pair) => pair.speedup))}`,
      scale.speedup,
      TARGETS.speedup,
    ],
    [
      `web console: \`/admin\` to its sign-in form, empty cache, Chromium on loopback (p50 of ${results.console.loads})`,
      `${results.console.first_load_p50_ms} ms (max ${results.console.first_load_max_ms})`,
      results.console.first_load_p50_ms,
      TARGETS.console_first_load_ms,
      " ms",
    ],
    [
      "web console: first bundle (scripts and stylesheet `/admin` loads), gzipped",
      `${results.console.first_bundle_gzip_kb} KB`,
      results.console.first_bundle_gzip_kb,
      TARGETS.console_first_bundle_kb,
      " KB",
    ],
  ];
  const { download } = results;
  if (download) {
    const downloads = Number(results.settings.download_reps ?? 1);
    rows.push([
      `marketplace RSS growth while a client downloads a ${Math.round(download.bytes / 1024 / 1024)} MB archive through it${downloads > 1 ? ` (median of ${downloads} downloads)` : ""}`,
      `${download.rss_growth_mb} MB (${download.rss_before_mb} → ${download.peak_rss_mb} MB; ${download.mb_per_sec} MB/s)`,
      download.rss_growth_mb,
      TARGETS.download_rss_growth_mb,
      " MB",
    ]);
  }
  if (results.licenses) rows.push(licenseRow(results.licenses));
  if (results.exports) rows.push(...exportRows(results.exports, TARGETS.export_rss_growth_mb));
  return rows;
}

/** The figures as a Markdown table, each with its target and whether this run met it. */
export function performanceTable(results: Results): string {
  const { catalog } = results;
  const cells = figureRows(results).map(([name, value, number, bound, unit]) => [
    name,
    value,
    bound ? targetText(bound, unit) : "none",
    bound ? (met(number, bound) ? "yes" : "no") : "n/a",
  ]);
  // Older results have no contract floor.
  const floor = typeof catalog.contract_floor_ratio === "number" ? catalog.contract_floor_ratio : undefined;
  return [
    `Measured ${results.measured_at.slice(0, 10)} on ${results.machine.cpus} cores, Bun ${results.machine.bun}, load by ${results.generator} and pgbench:`,
    "",
    ...markdownTable(["figure", "this run", "target", "met"], cells),
    ...(floor === undefined
      ? []
      : [
          "",
          `The catalog's contract alone, before any access line (a raw \`Bun.serve\` that reads the target, ` +
            `\`X-Request-Id\` and \`If-None-Match\`, sets a fresh request id and times the answer: ` +
            `\`bench/raw-server.ts --contract\`), read ${floor} of the same raw figure in this run ` +
            `(${thousands(catalog.contract_rps)} req/s): the most any implementation of the catalog could reach.`,
        ]),
  ].join("\n");
}

/** A Markdown table with its columns padded to one width, as the formatter lays the README out. */
function markdownTable(head: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = head.map((title, column) => Math.max(title.length, ...body.map((row) => row[column]?.length ?? 0)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(head), line(widths.map((width) => "-".repeat(width))), ...body.map(line)];
}

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/** Replaces the README's table between its bench markers with this run's. */
export async function writeReadmeTable(path: string, table: string): Promise<void> {
  const text = await Bun.file(path).text();
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path} has no ${START} ... ${END} block`);
  await Bun.write(path, `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`);
}

/** How much worse a figure may be than the baseline's before the comparison calls it a regression. */
export const REGRESSION_TOLERANCE = 0.1;

/**
 * The same figures of two builds measured in one run, side by side: the baseline's (`BENCH_BASELINE`),
 * this code's, the change in the direction the target counts as better, and whether it is within
 * `REGRESSION_TOLERANCE`. A figure whose baseline is 0 (duplicates, lost) must stay 0. The
 * generator's headroom is shown but not judged: it is the bench's, not the code's.
 */
export function comparisonTable(baseline: Results, current: Results, baselineName: string): string {
  const before = figureRows(baseline);
  const cells = figureRows(current).map(([name, value, number, bound, _unit, rig], index) => {
    const old = before[index];
    if (!old) return [name, "", value, "", ""];
    // The generator's headroom over the faster build is smaller by construction: it proves the load
    // generator was not the bottleneck, and says nothing about either build.
    if (rig) return [name, old[1], value, "", "n/a: the load generator's"];
    if (!bound) return [name, old[1], value, "", "n/a: no target"];
    const better = "min" in bound ? number - old[2] : old[2] - number;
    const change = old[2] === 0 ? (number === 0 ? 0 : -1) : better / Math.abs(old[2]);
    const sign = change >= 0 ? "+" : "−";
    return [
      name,
      old[1],
      value,
      `${sign}${Math.round(Math.abs(change) * 1000) / 10}%`,
      change >= -REGRESSION_TOLERANCE ? "yes" : "no",
    ];
  });
  return [
    `Side by side in the same run: \`${baselineName}\` (baseline) and this code; the change counts the direction the target calls better:`,
    "",
    ...markdownTable(["figure", "baseline", "this code", "change", `within ${REGRESSION_TOLERANCE * 100}%`], cells),
  ].join("\n");
}
