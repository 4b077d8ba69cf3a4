import { shareOut } from "../discounts/apply.ts";
import type { PaymentKind } from "../payments/payment.ts";
import {
  add,
  type GatewayEnvironment,
  ledgerKey,
  type Money,
  type RevenueFigures,
  withNet,
} from "./revenue-figures.ts";

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
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly kind: PaymentKind;
  readonly amount: number;
  readonly discount: number;
  readonly tax: number;
  readonly refunded_amount: number;
  readonly charged_back_amount: number;
  readonly items: readonly PaidItem[];
}

export type ProductRevenue = RevenueFigures & { readonly product_id: string; readonly product_name: string };

/**
 * The payments of orders that bought one product only, summed per environment, currency and
 * product: each goes to that product whole, whatever its items weigh, so they need no split.
 */
export interface OneProductRevenue extends Money {
  readonly environment: GatewayEnvironment;
  readonly currency: string;
  readonly product_id: string;
  readonly product_name: string;
}

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
 * products' figures add up to the payment's. Refunds are split by the products' gross and
 * chargebacks by what refunds left of it, so no product gives back more than it brought in.
 */
export function shareByProduct(payment: LedgerPayment): { readonly item: PaidItem; readonly money: Money }[] {
  const weights = weightsOf(payment);
  const split = (total: number) => shareOut(total, weights);
  const gross = split(payment.amount);
  // The ledger keeps refunds and chargebacks within the amount; were it not so, split them as the rest.
  const capped = payment.refunded_amount + payment.charged_back_amount <= payment.amount;
  const refunds = capped ? shareOut(payment.refunded_amount, gross) : split(payment.refunded_amount);
  const kept = gross.map((share, index) => share - (refunds[index] ?? 0));
  const chargedBack = capped ? shareOut(payment.charged_back_amount, kept) : split(payment.charged_back_amount);
  const [discounts, tax] = [split(payment.discount), split(payment.tax)];
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

/**
 * Revenue per product, per environment and currency: the sums of one-product orders as the
 * database adds them up, and every other payment split one at a time, so the ledger can be read
 * in batches and no payment needs to stay in memory once counted.
 */
export function productTally() {
  const ledgers = new Map<string, Map<string, { name: string; money: Money }>>();
  const productsOf = (environment: GatewayEnvironment, currency: string) => {
    const key = ledgerKey(environment, currency);
    const products = ledgers.get(key) ?? new Map<string, { name: string; money: Money }>();
    ledgers.set(key, products);
    return products;
  };
  return {
    addWhole({ environment, currency, product_id, product_name, ...money }: OneProductRevenue) {
      const products = productsOf(environment, currency);
      const before = products.get(product_id);
      products.set(product_id, {
        name: before?.name ?? product_name,
        money: before ? add(before.money, money) : money,
      });
    },

    add(payment: LedgerPayment) {
      const products = productsOf(payment.environment, payment.currency);
      // A product bought twice in one order is one product: its lines' shares add up, one payment.
      const perProduct = new Map<string, { name: string; money: Money }>();
      for (const { item, money } of shareByProduct(payment)) {
        const before = perProduct.get(item.product_id);
        perProduct.set(item.product_id, {
          name: item.product_name,
          money: before ? { ...add(before.money, money), payments: 1 } : money,
        });
      }
      for (const [productId, share] of perProduct) {
        const before = products.get(productId);
        products.set(productId, { name: share.name, money: before ? add(before.money, share.money) : share.money });
      }
    },

    /** The products of one ledger, the largest gross first. */
    of(environment: GatewayEnvironment, currency: string): ProductRevenue[] {
      return [...(ledgers.get(ledgerKey(environment, currency)) ?? [])]
        .map(([product_id, { name, money }]) => ({ product_id, product_name: name, ...withNet(money) }))
        .sort((a, b) => b.gross - a.gross || a.product_name.localeCompare(b.product_name));
    },
  };
}

export type ProductTally = ReturnType<typeof productTally>;
