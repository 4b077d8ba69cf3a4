import { Histogram, type MetricType, type Registry } from "prom-client";
import type { AnsweredRequest } from "../../kit/request-context.ts";

type Label = "method" | "route" | "status_class";

/** prom-client's default buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** prom-client's types declare the metric type a numeric enum; at run time it is the type's name. */
const HISTOGRAM = "histogram" as unknown as MetricType;
const NAME = "marketplace_http_request_duration_seconds";
const HELP = "HTTP requests answered, by method, route template and status class.";
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

interface Series {
  readonly labels: Readonly<Record<Label, string>>;
  /** Observations per bucket, not yet cumulative; the last counts those above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * `marketplace_http_request_duration_seconds`: a prom-client histogram whose observations are kept
 * in arrays found by method, route and status class, and handed to prom-client's exposition in the
 * shape its own histogram gives. prom-client's `observe` builds and hashes a label set per call
 * (0.5-0.8 µs); this costs a few map lookups (0.02-0.04 µs), on every request including the
 * catalog's cached answers, whose whole budget is about 25 µs of CPU. It leans on two of
 * prom-client's ways (its constructor calls `reset`, its registry prefers `getForPromString`);
 * the test that holds its exposition beside prom-client's own histogram fails if either changes.
 */
export class RequestDurations extends Histogram<Label | "le"> {
  /** Assigned by `reset`, which prom-client's constructor calls. */
  declare private series: Map<string, Map<string, (Series | undefined)[]>>;

  constructor(registry: Registry) {
    super({
      name: NAME,
      help: HELP,
      labelNames: ["method", "route", "status_class"],
      buckets: BUCKETS,
      registers: [registry],
    });
    // prom-client's own ways in would count where nothing reads; the constructor set `observe` on
    // the instance, so the refusals go there too.
    const useRecord = () => {
      throw new Error("RequestDurations counts through record()");
    };
    Object.assign(this, {
      observe: useRecord,
      startTimer: useRecord,
      labels: useRecord,
      zero: useRecord,
      remove: useRecord,
    });
  }

  /** Counts one answered request; a request no route matched is labelled `unmatched`. */
  record({ method, route, status, seconds }: AnsweredRequest): void {
    const series = this.seriesOf(method, route, Math.min(4, Math.max(0, Math.floor(status / 100) - 1)));
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > (BUCKETS[bucket] as number)) bucket += 1;
    series.counts[bucket] = (series.counts[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  private seriesOf(method: string, route: string, classIndex: number): Series {
    let byRoute = this.series.get(method);
    if (byRoute === undefined) {
      byRoute = new Map();
      this.series.set(method, byRoute);
    }
    let byClass = byRoute.get(route);
    if (byClass === undefined) {
      byClass = [];
      byRoute.set(route, byClass);
    }
    const found = byClass[classIndex];
    if (found !== undefined) return found;
    const labels = {
      method,
      route: route === "" ? "unmatched" : route,
      status_class: STATUS_CLASSES[classIndex] ?? "5xx",
    };
    const created: Series = { labels, counts: new Array(BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
    byClass[classIndex] = created;
    return created;
  }

  override async get() {
    return this.getForPromString();
  }

  /** What the registry writes out: cumulative buckets, then the sum and the count, per series. */
  async getForPromString() {
    const name = NAME;
    const values: { labels: Partial<Record<Label | "le", string | number>>; value: number; metricName: string }[] = [];
    for (const byRoute of this.series.values()) {
      for (const byClass of byRoute.values()) {
        for (const series of byClass) {
          if (series === undefined) continue;
          let cumulative = 0;
          BUCKETS.forEach((le, i) => {
            cumulative += series.counts[i] as number;
            values.push({ labels: { le, ...series.labels }, value: cumulative, metricName: `${name}_bucket` });
          });
          values.push({ labels: { le: "+Inf", ...series.labels }, value: series.count, metricName: `${name}_bucket` });
          values.push({ labels: series.labels, value: series.sum, metricName: `${name}_sum` });
          values.push({ labels: series.labels, value: series.count, metricName: `${name}_count` });
        }
      }
    }
    // `collect` is part of the type prom-client declares; its own histogram hands back the configured one (none here).
    return {
      name,
      help: HELP,
      type: HISTOGRAM,
      values,
      aggregator: "sum" as const,
      collect: () => undefined,
    };
  }

  override reset(): void {
    this.series = new Map();
  }
}
