import { describe, expect, test } from "bun:test";
import { combineRuns, type DeliveryFigures } from "../../bench/delivery.ts";

const run = (p50: number, p99: number, extra: Partial<DeliveryFigures> = {}): DeliveryFigures => ({
  orders: 2000,
  rate_per_sec: 200,
  p50_ms: p50,
  p90_ms: p50 * 2,
  p99_ms: p99,
  max_ms: p99 * 2,
  duplicates: 0,
  lost: 0,
  peak_rss_mb: 100,
  ...extra,
});

describe("runs of the delivery figure combined", () => {
  test("each percentile is the median run's, so one run caught in a stall does not decide it", () => {
    const combined = combineRuns([run(4.1, 12), run(9.5, 140), run(4.4, 15)]);
    expect(combined).toMatchObject({ p50_ms: 4.4, p90_ms: 8.8, p99_ms: 15, max_ms: 280 });
  });

  test("an even number of runs takes the middle two's mean", () => {
    expect(combineRuns([run(4, 10), run(5, 20)])).toMatchObject({ p50_ms: 4.5, p99_ms: 15 });
  });

  test("every order, lost and duplicated delivery counts, and the highest RSS is kept", () => {
    const combined = combineRuns([
      run(4, 10, { lost: 1, peak_rss_mb: 101.5 }),
      run(4, 10, { duplicates: 2, peak_rss_mb: 118.2 }),
      run(4, 10, { peak_rss_mb: 99 }),
    ]);
    expect(combined).toMatchObject({ orders: 6000, rate_per_sec: 200, lost: 1, duplicates: 2, peak_rss_mb: 118.2 });
  });
});
