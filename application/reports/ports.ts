import type { ProductTally } from "../../domain/reports/product-shares.ts";
import type { ReportRange } from "../../domain/reports/report-range.ts";
import type { RevenueBucket } from "../../domain/reports/revenue.ts";
import type { SubscriptionGroup } from "../../domain/reports/subscription-metrics.ts";

/** What reports read from the ledger and the subscription records. */
export interface ReportSource {
  /**
   * The payments the ledger recorded in the range, as they stand now, read from one snapshot:
   * summed per environment, currency, gateway and interval (the answer), and by product into
   * `products`: the payments of one-product orders summed per product (`addWhole`), every other
   * one with its order's items (`add`), read a batch at a time, so a long range is never held in
   * memory.
   */
  revenueBetween(range: ReportRange, products: Pick<ProductTally, "add" | "addWhole">): Promise<RevenueBucket[]>;
  /** The subscriptions created by `at`, grouped as they stood at `at` and at `since` (see `SubscriptionGroup`). */
  subscriptionGroups(at: Date, since: Date): Promise<SubscriptionGroup[]>;
}
