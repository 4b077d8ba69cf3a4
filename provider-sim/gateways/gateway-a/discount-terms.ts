import type { PaddleDiscount } from "./discounts.ts";
import { PaddleError } from "./errors.ts";
import { addCycle, type PaddleSubscription, type Period, type SubscriptionDiscount } from "./model.ts";

const refusal = (code: string, detail: string, section: string) =>
  new PaddleError(400, code, detail, "request_error", { section });

/**
 * The discount a new transaction names, refused as Paddle refuses it (400): unknown, archived,
 * past its `expires_at`, or redeemed `usage_limit` times.
 */
export function usableDiscount(found: PaddleDiscount | undefined): PaddleDiscount {
  if (!found) {
    throw refusal("transaction_discount_not_found", "Cannot find provided discount code/id", "transactions");
  }
  if (found.status === "archived") throw refusal("entity_archived", `Discount ${found.id} is archived`, "shared");
  if (found.status === "expired") throw refusal("discount_expired", `Discount ${found.id} has expired`, "discounts");
  if (found.status === "used") {
    throw refusal("discount_usage_limit_exceeded", "Discount usage limit has been exceeded", "discounts");
  }
  return found;
}

/** A flat discount is money in one currency; Paddle converts none, so it only applies in that currency. */
export function refuseOtherCurrency(discount: PaddleDiscount, currency: string): void {
  if (discount.type === "percentage" || discount.currency_code === currency) return;
  throw refusal(
    "transaction_invalid_discount_currency",
    `Flat discounts must be in the same currency as the transaction. Discount currency: ${discount.currency_code}, Transaction currency: ${currency}`,
    "transactions",
  );
}

/** Whether `discount` covers a line: every line, or those whose price or product it is restricted to. */
export const covers = (discount: PaddleDiscount, priceId: string, productId: string): boolean =>
  discount.restrict_to === null || discount.restrict_to.includes(priceId) || discount.restrict_to.includes(productId);

/** A discount restricted to prices or products none of the lines have is refused (400). */
export function refuseIneligible(
  discount: PaddleDiscount,
  lines: readonly { readonly price: { readonly id: string }; readonly product: { readonly id: string } }[],
): void {
  if (!lines.some((line) => covers(discount, line.price.id, line.product.id))) {
    throw refusal(
      "transaction_discount_not_eligible",
      "Discount is not eligible for the provided items",
      "transactions",
    );
  }
}

/**
 * The discount a subscription started by a discounted checkout carries. Only a recurring discount
 * stays with the subscription (a one-off one applied to the checkout alone, as Paddle allows no
 * one-off discount on a subscription). It starts with the first billed period (after a trial, if
 * any); with `maximum_recurring_intervals` N it ends where the Nth billed period ends, the
 * checkout's period counting as the first; a discount that recurs forever has no end.
 */
export function subscriptionDiscount(
  discount: PaddleDiscount,
  subscription: PaddleSubscription,
): SubscriptionDiscount | null {
  const period = subscription.current_billing_period;
  if (!discount.recur || period === null) return null;
  const startsAt = subscription.status === "trialing" ? period.ends_at : period.starts_at;
  const intervals = discount.maximum_recurring_intervals;
  if (intervals === null) return { id: discount.id, starts_at: startsAt, ends_at: null };
  // Period by period, as renewals move them, so month ends fall on the same dates.
  let endsAt = new Date(startsAt);
  for (let i = 0; i < intervals; i += 1) endsAt = addCycle(endsAt, subscription.billing_cycle);
  return { id: discount.id, starts_at: startsAt, ends_at: endsAt.toISOString() };
}

/** The subscription's discount if it still applies to a renewal billing `period`; null once it has ended. */
export function discountForPeriod(subscription: PaddleSubscription, period: Period): SubscriptionDiscount | null {
  const discount = subscription.discount;
  if (discount === null) return null;
  if (discount.ends_at !== null && new Date(period.starts_at) >= new Date(discount.ends_at)) return null;
  return discount;
}
