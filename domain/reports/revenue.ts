import type { PaymentGatewayName } from "../catalog/product.ts";
import { shareOut } from "../discounts/apply.ts";
import type { PaymentKind } from "../payments/payment.ts";
import { intervalsOf, type ReportRange } from "./report-range.ts";

export type GatewayEnvironment = "sandbox" | "live";

/** A product an order bought, weighted by its share of a payment of the order. */
export interface PaidItem {
  readonly product_id: string;
  readonly product_name: string;
  /** What the item was charged now (`due_today`), as the order recorded it. */
  readonly due_today: number;
  /** The item's price for its period (`amount`). */
  readonly amount: number;
  /** Whether it renews: only renewing items share a renewal or a plan change's proration. */
  readonly recurring: boolean;
}

/** One payment of the ledger, as it stands now, with the items of its order. */
export interface LedgerPayment {
  readonly id: string;
  readonly gateway: PaymentGatewayName;
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly kind: PaymentKind;
  /** When the ledger recorded it: what places the payment, its refunds and its chargebacks in an interval. */
  readonly created_at: Date;
  readonly amount: number;
  readonly discount: number;
  readonly tax: number;
  readonly refunded_amount: number;
  readonly charged_back_amount: number;
  readonly items: readonly PaidItem[];
}

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

type Money = Omit<RevenueFigures, "net">;

export interface RevenueLedger {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly total: RevenueFigures;
  readonly intervals: readonly (RevenueFigures & { readonly start: Date; readonly end: Date })[];
  readonly by_gateway: readonly (RevenueFigures & { readonly gateway: PaymentGatewayName })[];
  readonly by_product: readonly (RevenueFigures & { readonly product_id: string; readonly product_name: string })[];
}

const ZERO: Money = { payments: 0, gross: 0, discounts: 0, tax: 0, refunds: 0, charged_back: 0 };

const moneyOf = (payment: LedgerPayment): Money => ({
  payments: 1,
  gross: payment.amount,
  discounts: payment.discount,
  tax: payment.tax,
  refunds: payment.refunded_amount,
  charged_back: payment.charged_back_amount,
});

const add = (a: Money, b: Money): Money => ({
  payments: a.payments + b.payments,
  gross: a.gross + b.gross,
  discounts: a.discounts + b.discounts,
  tax: a.tax + b.tax,
  refunds: a.refunds + b.refunds,
  charged_back: a.charged_back + b.charged_back,
});

const withNet = (money: Money): RevenueFigures => ({ ...money, net: money.gross - money.refunds - money.charged_back });

/**
 * The items a payment paid for, with their weights: a first payment by what each item was charged
 * now, a renewal or proration by the renewing items' prices. With no weight at all (a payment the
 * order did not expect), every item weighs the same.
 */
function weightsOf(payment: LedgerPayment): number[] {
  const weights = payment.items.map((item) =>
    payment.kind === "initial" ? item.due_today : item.recurring ? item.amount : 0,
  );
  return weights.some((weight) => weight > 0) ? weights : payment.items.map(() => 1);
}

/**
 * A payment split over its order's products, each figure to the cent by largest remainders, so the
 * products' figures add up to the payment's.
 */
export function shareByProduct(payment: LedgerPayment): { readonly item: PaidItem; readonly money: Money }[] {
  const weights = weightsOf(payment);
  const split = (total: number) => shareOut(total, weights);
  const [gross, discounts, tax, refunds, chargedBack] = [
    split(payment.amount),
    split(payment.discount),
    split(payment.tax),
    split(payment.refunded_amount),
    split(payment.charged_back_amount),
  ];
  // An item the payment did not pay for (a one-time item beside a renewal) takes no share of it.
  return payment.items.flatMap((item, index) =>
    weights[index] === 0
      ? []
      : [
          {
            item,
            money: {
              payments: 1,
              gross: gross[index] ?? 0,
              discounts: discounts[index] ?? 0,
              tax: tax[index] ?? 0,
              refunds: refunds[index] ?? 0,
              charged_back: chargedBack[index] ?? 0,
            },
          },
        ],
  );
}

function addTo<K>(map: Map<K, Money>, key: K, money: Money) {
  map.set(key, add(map.get(key) ?? ZERO, money));
}

function ledgerOf(
  range: ReportRange,
  key: { environment: GatewayEnvironment; currency: string },
  payments: readonly LedgerPayment[],
): RevenueLedger {
  const intervals = intervalsOf(range).map((interval) => ({ ...interval, money: ZERO }));
  const byGateway = new Map<PaymentGatewayName, Money>();
  const byProduct = new Map<string, Money>();
  const names = new Map<string, string>();
  let total = ZERO;
  for (const payment of payments) {
    const money = moneyOf(payment);
    total = add(total, money);
    const slot = intervals.find(
      (interval) => payment.created_at >= interval.start && payment.created_at < interval.end,
    );
    if (slot) slot.money = add(slot.money, money);
    addTo(byGateway, payment.gateway, money);
    // A product bought twice in one order is one product: its lines' shares add up.
    const perProduct = new Map<string, Money>();
    for (const share of shareByProduct(payment)) {
      names.set(share.item.product_id, share.item.product_name);
      const before = perProduct.get(share.item.product_id);
      perProduct.set(share.item.product_id, before ? { ...add(before, share.money), payments: 1 } : share.money);
    }
    for (const [productId, share] of perProduct) addTo(byProduct, productId, share);
  }
  return {
    ...key,
    total: withNet(total),
    intervals: intervals.map(({ start, end, money }) => ({ start, end, ...withNet(money) })),
    by_gateway: [...byGateway]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([gateway, money]) => ({ gateway, ...withNet(money) })),
    by_product: [...byProduct]
      .map(([product_id, money]) => ({ product_id, product_name: names.get(product_id) ?? "", ...withNet(money) }))
      .sort((a, b) => b.gross - a.gross || a.product_name.localeCompare(b.product_name)),
  };
}

/**
 * The revenue report of a range: one ledger per environment and currency (sandbox money and live
 * money, euros and dollars, are never added together), live first, then by currency. Payments
 * outside the range are ignored.
 */
export function aggregateRevenue(range: ReportRange, payments: readonly LedgerPayment[]): RevenueLedger[] {
  const groups = new Map<string, LedgerPayment[]>();
  for (const payment of payments) {
    if (payment.created_at < range.from || payment.created_at >= range.until) continue;
    const key = `${payment.environment === "live" ? 0 : 1}:${payment.environment}:${payment.currency}`;
    const group = groups.get(key);
    if (group) group.push(payment);
    else groups.set(key, [payment]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, group]) => {
      const first = group[0] as LedgerPayment;
      return ledgerOf(range, { environment: first.environment, currency: first.currency }, group);
    });
}
