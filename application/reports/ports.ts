import type { LedgerPayment } from "../../domain/reports/revenue.ts";
import type { SubscriptionFacts } from "../../domain/reports/subscription-metrics.ts";

/** What reports read from the ledger and the subscription records. */
export interface ReportSource {
  /** Every payment the ledger recorded in `[from, until)`, as it stands now, with its order's items. */
  paymentsBetween(from: Date, until: Date): Promise<LedgerPayment[]>;
  /** Every subscription created by `at`, with the price it renews at now. */
  subscriptionsAt(at: Date): Promise<SubscriptionFacts[]>;
}
