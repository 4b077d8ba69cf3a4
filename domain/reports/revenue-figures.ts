export type GatewayEnvironment = "sandbox" | "live";

/**
 * Money of one currency. `gross` is what customers paid (after discounts, tax included), as the
 * ledger holds it; `discounts` is what codes took off before that and `tax` the part of `gross`
 * that is tax; `net` is what the shop kept of `gross`: less refunds and chargebacks.
 */
export interface RevenueFigures {
  readonly payments: number;
  readonly gross: number;
  readonly discounts: number;
  readonly tax: number;
  readonly refunds: number;
  readonly charged_back: number;
  readonly net: number;
}

/** The figures that add up; `net` is worked out from them. */
export type Money = Omit<RevenueFigures, "net">;

export const ZERO: Money = { payments: 0, gross: 0, discounts: 0, tax: 0, refunds: 0, charged_back: 0 };

export const add = (a: Money, b: Money): Money => ({
  payments: a.payments + b.payments,
  gross: a.gross + b.gross,
  discounts: a.discounts + b.discounts,
  tax: a.tax + b.tax,
  refunds: a.refunds + b.refunds,
  charged_back: a.charged_back + b.charged_back,
});

export const withNet = (money: Money): RevenueFigures => ({
  payments: money.payments,
  gross: money.gross,
  discounts: money.discounts,
  tax: money.tax,
  refunds: money.refunds,
  charged_back: money.charged_back,
  net: money.gross - money.refunds - money.charged_back,
});

/** Ledgers in the report's order: live before sandbox, then by currency. */
export const ledgerKey = (environment: GatewayEnvironment, currency: string) =>
  `${environment === "live" ? 0 : 1}:${environment}:${currency}`;
