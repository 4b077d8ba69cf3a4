import type { PaymentGatewayName } from "../catalog/product.ts";
import type { ProductRevenue, ProductTally } from "./product-shares.ts";
import { intervalStart, intervalsOf, type ReportRange } from "./report-range.ts";
import {
  add,
  type GatewayEnvironment,
  ledgerKey,
  type Money,
  type RevenueFigures,
  withNet,
  ZERO,
} from "./revenue-figures.ts";

/**
 * The ledger's payments of one environment, currency and gateway recorded in one interval, summed,
 * with what has been refunded and charged back of them as of now.
 */
export interface RevenueBucket extends Money {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly gateway: PaymentGatewayName;
  /** Where its interval starts before the range cuts it: the UTC day, the week's Monday, the month's first. */
  readonly start: Date;
}

export interface RevenueLedger {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly total: RevenueFigures;
  readonly intervals: readonly (RevenueFigures & { readonly start: Date; readonly end: Date })[];
  readonly by_gateway: readonly (RevenueFigures & { readonly gateway: PaymentGatewayName })[];
  readonly by_product: readonly ProductRevenue[];
}

interface Sums {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  total: Money;
  readonly intervals: Money[];
  readonly byGateway: Map<PaymentGatewayName, Money>;
}

/**
 * The revenue report of a range from the ledger's sums: one ledger per environment and currency
 * (sandbox money and live money, euros and dollars, are never added together), live first, then by
 * currency, each with every interval of the range, its gateways and its products.
 */
export function revenueLedgers(
  range: ReportRange,
  buckets: readonly RevenueBucket[],
  products: Pick<ProductTally, "of">,
): RevenueLedger[] {
  const intervals = intervalsOf(range);
  // A bucket finds its interval by where that starts: one lookup, however many intervals.
  const slots = new Map(
    intervals.map((interval, index) => [intervalStart(interval.start, range.interval).getTime(), index]),
  );
  const ledgers = new Map<string, Sums>();
  for (const bucket of buckets) {
    const key = ledgerKey(bucket.environment, bucket.currency);
    const sums = ledgers.get(key) ?? {
      environment: bucket.environment,
      currency: bucket.currency,
      total: ZERO,
      intervals: intervals.map(() => ZERO),
      byGateway: new Map<PaymentGatewayName, Money>(),
    };
    ledgers.set(key, sums);
    sums.total = add(sums.total, bucket);
    const slot = slots.get(bucket.start.getTime());
    if (slot !== undefined) sums.intervals[slot] = add(sums.intervals[slot] ?? ZERO, bucket);
    sums.byGateway.set(bucket.gateway, add(sums.byGateway.get(bucket.gateway) ?? ZERO, bucket));
  }
  return [...ledgers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, sums]) => ({
      environment: sums.environment,
      currency: sums.currency,
      total: withNet(sums.total),
      intervals: intervals.map(({ start, end }, index) => ({ start, end, ...withNet(sums.intervals[index] ?? ZERO) })),
      by_gateway: [...sums.byGateway]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([gateway, money]) => ({ gateway, ...withNet(money) })),
      by_product: products.of(sums.environment, sums.currency),
    }));
}
