import type postgres from "postgres";
import { awaitActive, awaitQueueDrained, insertOrders, send, tenantsAtSimulator } from "./paid-orders.ts";
import { type Service, watchPeakRss } from "./services.ts";
import { median, round } from "./tools.ts";

export interface DeliveryFigures {
  readonly orders: number;
  readonly rate_per_sec: number;
  readonly p50_ms: number;
  readonly p90_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
  /** Tenants the provider created beyond one per order. */
  readonly duplicates: number;
  /** Orders not active by the deadline. */
  readonly lost: number;
  readonly peak_rss_mb: number;
}

/** Paid → active per order: from the webhook's arrival in the inbox to its delivery turning active. */
async function latencies(sql: postgres.Sql, ids: readonly string[]) {
  const [row] = await sql<{ p50: number; p90: number; p99: number; max: number }[]>`
    select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.9) within group (order by ms) as p90,
           percentile_cont(0.99) within group (order by ms) as p99, max(ms) as max
    from (
      select extract(epoch from f.updated_at - w.received_at) * 1000 as ms
      from fulfillment_records f join webhook_inbox w on w.event_id = 'evt_bench_' || f.order_id
      where f.order_id in ${sql(ids as string[])} and f.status = 'active'
    ) t`;
  return {
    p50: round(row?.p50 ?? 0, 1),
    p90: round(row?.p90 ?? 0, 1),
    p99: round(row?.p99 ?? 0, 1),
    max: round(row?.max ?? 0, 1),
  };
}

async function countActive(sql: postgres.Sql, ids: readonly string[]): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from fulfillment_records where order_id in ${sql(ids as string[])} and status = 'active'`;
  return row?.n ?? 0;
}

/**
 * Offers `rate` paid orders a second for `seconds` (each a signed gateway_b webhook, sent on its
 * schedule whatever the answers before it), waits until all are active or `drainMs` passed, and
 * reports latency percentiles, lost and duplicated deliveries and the instance's peak RSS.
 */
export async function offerPaidOrders(options: {
  readonly sql: postgres.Sql;
  readonly marketplace: Service;
  readonly sim: Service;
  readonly customerId: string;
  readonly productId: string;
  readonly rate: number;
  readonly seconds: number;
  readonly drainMs?: number;
}): Promise<DeliveryFigures> {
  const { sql, marketplace, sim, rate } = options;
  const ids = await insertOrders(
    sql,
    options.customerId,
    options.productId,
    Math.max(1, Math.round(rate * options.seconds)),
  );
  const tenantsBefore = await tenantsAtSimulator(sim.url);
  const memory = await watchPeakRss(marketplace.proc.pid);
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < ids.length; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    sends.push(send(marketplace.url, ids[i] ?? ""));
  }
  await Promise.all(sends);
  let lost = 0;
  try {
    await awaitActive(sql, ids, options.drainMs ?? 60_000);
  } catch {
    lost = ids.length - (await countActive(sql, ids));
  }
  await awaitQueueDrained(sql);
  const peak = await memory.stop();
  const { p50, p90, p99, max } = await latencies(sql, ids);
  const duplicates = (await tenantsAtSimulator(sim.url)) - tenantsBefore - (ids.length - lost);
  return {
    orders: ids.length,
    rate_per_sec: rate,
    p50_ms: p50,
    p90_ms: p90,
    p99_ms: p99,
    max_ms: max,
    duplicates,
    lost,
    peak_rss_mb: round(peak, 1),
  };
}

/**
 * Runs of the same offered load as one figure: each percentile the median of the runs' (so one run
 * caught in a stall of the machine does not decide it), every order counted, every lost or
 * duplicated delivery summed, and the highest peak RSS.
 */
export function combineRuns(runs: readonly DeliveryFigures[]): DeliveryFigures {
  const sum = (pick: (run: DeliveryFigures) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    orders: sum((run) => run.orders),
    rate_per_sec: runs[0]?.rate_per_sec ?? 0,
    p50_ms: round(median(runs.map((run) => run.p50_ms)), 1),
    p90_ms: round(median(runs.map((run) => run.p90_ms)), 1),
    p99_ms: round(median(runs.map((run) => run.p99_ms)), 1),
    max_ms: Math.max(...runs.map((run) => run.max_ms)),
    duplicates: sum((run) => run.duplicates),
    lost: sum((run) => run.lost),
    peak_rss_mb: Math.max(...runs.map((run) => run.peak_rss_mb)),
  };
}

/**
 * Throughput with `orders` sent at once (50 in flight) across `instances`: orders made active per
 * second, from the first webhook received to the last delivery. Returns once the queue is empty
 * (the deliveries' notifications sent too), so the next figure starts from the same state.
 */
export async function burstThroughput(options: {
  readonly sql: postgres.Sql;
  readonly instances: readonly Service[];
  readonly customerId: string;
  readonly productId: string;
  readonly orders: number;
}): Promise<number> {
  const { sql, instances } = options;
  const ids = await insertOrders(sql, options.customerId, options.productId, options.orders);
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const i = next++;
      await send(instances[i % instances.length]?.url ?? "", ids[i] ?? "");
    }
  };
  await Promise.all(Array.from({ length: 50 }, lane));
  await awaitActive(sql, ids, 180_000);
  await awaitQueueDrained(sql);
  const [row] = await sql<{ span: number }[]>`
    select extract(epoch from max(f.updated_at) - min(w.received_at)) as span
    from fulfillment_records f join webhook_inbox w on w.event_id = 'evt_bench_' || f.order_id
    where f.order_id in ${sql(ids as string[])}`;
  return round(ids.length / (row?.span || 1), 1);
}
