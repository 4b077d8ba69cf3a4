import { describe, expect, test } from "bun:test";
import { comparisonTable, performanceTable, type Results } from "../../bench/report.ts";

const results = (await Bun.file(new URL("../../bench/results.json", import.meta.url)).json()) as Results;

describe("the README's Performance table", () => {
  test("has every figure with its target, in columns padded to one width as the formatter lays them out", () => {
    const table = performanceTable(results)
      .split("\n")
      .filter((line) => line.startsWith("|"));
    expect(table[0]).toMatch(/^\| figure +\| this run +\| target +\| met \|$/);
    expect(table[1]).toMatch(/^\| -+ \| -+ \| -+ \| -+ \|$/);
    expect(new Set(table.map((line) => line.length)).size).toBe(1);
    expect(table.some((line) => line.includes("`catalog_ratio`") && line.includes(">= 0.85"))).toBe(true);
    expect(table.some((line) => line.includes("web console: first bundle") && line.includes("<= 150 KB"))).toBe(true);
  });

  test("gives the catalog contract's floor beside the table when the run measured it", () => {
    const measured = { ...results, catalog: { ...results.catalog, contract_floor_ratio: 0.88, contract_rps: 140_000 } };
    expect(performanceTable(measured)).toContain("read 0.88 of the same raw figure in this run (140,000 req/s)");
    const { contract_floor_ratio: _ratio, contract_rps: _rps, ...older } = results.catalog;
    expect(performanceTable({ ...results, catalog: older as Results["catalog"] })).not.toContain("contract alone");
  });

  test("says whether each figure met its target", () => {
    const oversized = { ...results, console: { ...results.console, first_bundle_gzip_kb: 151 } };
    const row = performanceTable(oversized)
      .split("\n")
      .find((line) => line.includes("web console: first bundle"));
    expect(row).toMatch(/\| no +\|$/);
  });

  test("shows the download's memory when the run measured it, and results from before it without the row", () => {
    const download = {
      bytes: 200 * 1024 * 1024,
      rss_before_mb: 70,
      peak_rss_mb: 90,
      rss_growth_mb: 20,
      seconds: 0.5,
      mb_per_sec: 400,
    };
    const row = performanceTable({ ...results, download })
      .split("\n")
      .find((line) => line.includes("downloads a 200 MB archive"));
    expect(row).toContain("20 MB (70 → 90 MB; 400 MB/s)");
    expect(row).toMatch(/<= 32 MB +\| yes +\|$/);
    const { download: _none, ...older } = { ...results, download };
    expect(performanceTable(older)).not.toContain("downloads a");
  });
});

describe("the side-by-side table of a baseline and this code", () => {
  const rowOf = (table: string, text: string) => table.split("\n").find((line) => line.includes(text));

  test("counts a figure more than 10% worse in its target's direction as a regression, and less as within", () => {
    const slower = { ...results, catalog: { ...results.catalog, catalog_ratio: results.catalog.catalog_ratio * 0.85 } };
    const table = comparisonTable(results, slower, "v1");
    expect(table).toContain("`v1` (baseline)");
    expect(rowOf(table, "`catalog_ratio`")).toMatch(/\| −15% +\| no +\|$/);
    const slightly = { ...results, e2e: { ...results.e2e, p99_ms: results.e2e.p99_ms * 1.05 } };
    expect(rowOf(comparisonTable(results, slightly, "v1"), "paid → active p99")).toMatch(/\| −5% +\| yes +\|$/);
  });

  test("calls a lower latency and a higher ratio better, and a lost delivery where there was none a regression", () => {
    const better = {
      ...results,
      catalog: { ...results.catalog, catalog_ratio: results.catalog.catalog_ratio * 1.2 },
      e2e: { ...results.e2e, p50_ms: results.e2e.p50_ms / 2, lost: 1 },
    };
    const baseline = { ...results, e2e: { ...results.e2e, lost: 0 } };
    const table = comparisonTable(baseline, better, "v1");
    expect(rowOf(table, "`catalog_ratio`")).toMatch(/\| \+20% +\| yes +\|$/);
    expect(rowOf(table, "paid → active p50")).toMatch(/\| \+50% +\| yes +\|$/);
    expect(rowOf(table, "lost deliveries")).toMatch(/\| no +\|$/);
  });

  test("shows the load generator's headroom without judging it: a faster build lowers it by construction", () => {
    const faster = {
      ...results,
      catalog: { ...results.catalog, marketplace_rps: results.catalog.marketplace_rps * 2 },
    };
    expect(rowOf(comparisonTable(results, faster, "v1"), "generator (")).toMatch(
      /\| +\| n\/a: the load generator's \|$/,
    );
  });
});
