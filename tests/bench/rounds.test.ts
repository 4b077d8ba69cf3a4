import { describe, expect, test } from "bun:test";
import { type CatalogMeasurement, combineCatalogRounds } from "../../bench/catalog.ts";
import { type DownloadFigures, medianDownload } from "../../bench/download.ts";
import { combineWebhookRounds, type WebhookMeasurement } from "../../bench/webhooks.ts";

const catalogRound = (ratio: number, rps: number): CatalogMeasurement => ({
  generator: "wrk 4.1: 1 thread, 5 s per run, 1 rounds",
  catalog_ratio: ratio,
  product_ratio: ratio / 2,
  marketplace_rps: rps,
  product_rps: rps / 2,
  raw_bun_rps: 60_000,
  raw_product_rps: 60_000,
  generator_ceiling_rps: 150_000,
  contract_floor_ratio: 0.75,
  contract_rps: 45_000,
  generator_cpu_share: 0.4,
  spread: { min: ratio, max: ratio },
});

describe("figures from rounds taken in turns", () => {
  test("the catalog's: each field's median, the list ratio's spread, the rounds counted", () => {
    const combined = combineCatalogRounds([
      catalogRound(0.6, 36_000),
      catalogRound(0.9, 54_000),
      catalogRound(0.7, 42_000),
    ]);
    expect(combined).toMatchObject({
      generator: "wrk 4.1: 1 thread, 5 s per run, 3 rounds",
      catalog_ratio: 0.7,
      product_ratio: 0.35,
      marketplace_rps: 42_000,
      spread: { min: 0.6, max: 0.9 },
    });
  });

  test("the webhooks': medians of the accepted rate, the floor and the per-round ratios", () => {
    const round = (accepted: number, tps: number): WebhookMeasurement => ({
      generator: "wrk (2 threads) vs pgbench (-c 32), 1 x 5 s",
      accepted_per_sec: accepted,
      pgbench_tps: tps,
      webhook_ratio: accepted / tps,
      spread: { min: accepted / tps, max: accepted / tps },
    });
    expect(combineWebhookRounds([round(4000, 1000), round(4400, 1100), round(3000, 1500)])).toEqual({
      generator: "wrk (2 threads) vs pgbench (-c 32), 3 x 5 s",
      accepted_per_sec: 4000,
      pgbench_tps: 1100,
      webhook_ratio: 4,
      spread: { min: 2, max: 4 },
    });
  });

  test("the download's: the download of median growth, whole", () => {
    const download = (growth: number): DownloadFigures => ({
      bytes: 1,
      rss_before_mb: 60,
      peak_rss_mb: 60 + growth,
      rss_growth_mb: growth,
      seconds: growth,
      mb_per_sec: 1,
    });
    expect(medianDownload([download(15), download(9), download(12)])).toEqual(download(12));
  });
});
