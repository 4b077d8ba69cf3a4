/** One offered load and the paid → active latency percentiles measured at it. */
export interface LatencyPoint {
  readonly rate: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { top: 48, right: 120, bottom: 56, left: 72 };
const SERIES = [
  { key: "p50", label: "p50", color: "#1f77b4" },
  { key: "p90", label: "p90", color: "#ff7f0e" },
  { key: "p99", label: "p99", color: "#d62728" },
] as const;

const escapeXml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const fixed = (value: number) => Math.round(value * 10) / 10;

/** 1, 2 and 5 times each power of ten from `low` up to `high`: the gridlines of a log axis. */
function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let decade = low; decade <= high; decade *= 10) {
    for (const m of [1, 2, 5]) if (decade * m <= high * (1 + 1e-9)) ticks.push(decade * m);
  }
  return ticks;
}

/**
 * Paid → active latency percentiles against offered load, as a self-contained SVG line chart
 * (no script, no external font), with each target drawn as a dashed line. The latency axis is
 * logarithmic, as latency plots are read: a few milliseconds and a saturated second both show.
 */
export function latencyChart(
  points: readonly LatencyPoint[],
  targets: { readonly p50: number; readonly p99: number },
  title: string,
): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const rates = points.map((point) => point.rate);
  const minRate = Math.min(...rates, 0);
  const maxRate = Math.max(...rates, 1);
  const values = points.flatMap((point) => [point.p50, point.p90, point.p99]).filter((ms) => ms > 0);
  const lowest = Math.min(targets.p50, ...values);
  const highest = Math.max(targets.p99, ...values);
  const minY = 10 ** Math.floor(Math.log10(lowest));
  const top = 10 ** Math.ceil(Math.log10(highest));
  const maxY = [top / 5, top / 2, top].find((candidate) => candidate >= highest) ?? top;
  const span = Math.log10(maxY) - Math.log10(minY) || 1;
  const x = (rate: number) => MARGIN.left + ((rate - minRate) / (maxRate - minRate || 1)) * plotWidth;
  const y = (ms: number) =>
    MARGIN.top + plotHeight - ((Math.log10(Math.max(ms, minY)) - Math.log10(minY)) / span) * plotHeight;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(title)}</text>`,
  ];
  for (const ms of logTicks(minY, maxY)) {
    parts.push(
      `<line x1="${MARGIN.left}" y1="${fixed(y(ms))}" x2="${MARGIN.left + plotWidth}" y2="${fixed(y(ms))}" stroke="#e5e5e5"/>`,
      `<text x="${MARGIN.left - 8}" y="${fixed(y(ms)) + 4}" text-anchor="end">${fixed(ms)}</text>`,
    );
  }
  for (const rate of rates) {
    parts.push(
      `<line x1="${fixed(x(rate))}" y1="${MARGIN.top + plotHeight}" x2="${fixed(x(rate))}" y2="${MARGIN.top + plotHeight + 5}" stroke="#333"/>`,
      `<text x="${fixed(x(rate))}" y="${MARGIN.top + plotHeight + 20}" text-anchor="middle">${rate}</text>`,
    );
  }
  parts.push(
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotHeight}" x2="${MARGIN.left + plotWidth}" y2="${MARGIN.top + plotHeight}" stroke="#333"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotHeight}" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 14}" text-anchor="middle">offered load (paid orders/s)</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">paid → active (ms, log scale)</text>`,
  );
  for (const [label, ms] of [
    ["p50 target", targets.p50],
    ["p99 target", targets.p99],
  ] as const) {
    parts.push(
      `<line x1="${MARGIN.left}" y1="${fixed(y(ms))}" x2="${MARGIN.left + plotWidth}" y2="${fixed(y(ms))}" stroke="#666" stroke-dasharray="6 4"/>`,
      `<text x="${MARGIN.left + plotWidth + 6}" y="${fixed(y(ms)) + 4}" fill="#666">${label} ${ms} ms</text>`,
    );
  }
  SERIES.forEach((series, index) => {
    const coordinates = points.map((point) => `${fixed(x(point.rate))},${fixed(y(point[series.key]))}`);
    parts.push(
      `<polyline data-series="${series.key}" points="${coordinates.join(" ")}" fill="none" stroke="${series.color}" stroke-width="2"/>`,
    );
    for (const point of points) {
      parts.push(
        `<circle cx="${fixed(x(point.rate))}" cy="${fixed(y(point[series.key]))}" r="3" fill="${series.color}"><title>${series.label} at ${point.rate}/s: ${point[series.key]} ms</title></circle>`,
      );
    }
    const legendY = MARGIN.top + 12 + index * 18;
    parts.push(
      `<line x1="${MARGIN.left + 12}" y1="${legendY}" x2="${MARGIN.left + 36}" y2="${legendY}" stroke="${series.color}" stroke-width="2"/>`,
      `<text x="${MARGIN.left + 42}" y="${legendY + 4}">${series.label}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
