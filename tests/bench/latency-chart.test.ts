import { describe, expect, test } from "bun:test";
import { latencyChart } from "../../bench/latency-chart.ts";

const points = [
  { rate: 50, p50: 2, p90: 3, p99: 5 },
  { rate: 200, p50: 3, p90: 6, p99: 12 },
  { rate: 400, p50: 9, p90: 20, p99: 60 },
];

const seriesPoints = (svg: string, key: string) =>
  (new RegExp(`data-series="${key}" points="([^"]*)"`).exec(svg)?.[1] ?? "")
    .split(" ")
    .map((pair) => pair.split(",").map(Number) as [number, number]);

describe("latencyChart", () => {
  test("draws one line per percentile through every offered load, left to right", () => {
    const svg = latencyChart(points, { p50: 5, p99: 25 }, "paid → active");
    for (const key of ["p50", "p90", "p99"]) {
      const drawn = seriesPoints(svg, key);
      expect(drawn).toHaveLength(3);
      expect(drawn.map(([x]) => x)).toEqual([...drawn.map(([x]) => x)].sort((a, b) => a - b));
    }
  });

  test("a higher latency is drawn higher up (smaller y), and p99 above p50 at the same load", () => {
    const svg = latencyChart(points, { p50: 5, p99: 25 }, "t");
    const p50 = seriesPoints(svg, "p50");
    const p99 = seriesPoints(svg, "p99");
    expect(p99[2]?.[1]).toBeLessThan(p99[0]?.[1] ?? 0);
    expect(p99[1]?.[1]).toBeLessThan(p50[1]?.[1] ?? 0);
  });

  test("labels the loads and the targets, and escapes the title", () => {
    const svg = latencyChart(points, { p50: 5, p99: 25 }, "a < b & c");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("<title>a &lt; b &amp; c</title>");
    for (const label of [">50<", ">200<", ">400<", "p50 target 5 ms", "p99 target 25 ms"]) expect(svg).toContain(label);
  });

  test("the latency axis is logarithmic: equal ratios take equal heights, so milliseconds and seconds both show", () => {
    const svg = latencyChart([{ rate: 100, p50: 1, p90: 10, p99: 100 }], { p50: 1, p99: 100 }, "t");
    const [[, y1]] = seriesPoints(svg, "p50") as [[number, number]];
    const [[, y10]] = seriesPoints(svg, "p90") as [[number, number]];
    const [[, y100]] = seriesPoints(svg, "p99") as [[number, number]];
    expect(y1 - y10).toBeCloseTo(y10 - y100, 0);
    expect(svg).toContain("log scale");
  });
});
