import type { CheckoutDiscount } from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import { WHOLE_PRICE_BASIS_POINTS } from "../../../domain/discounts/discount.ts";
import type { StripeCall } from "./stripe-http.ts";

type Send = (call: StripeCall) => Promise<unknown>;

/**
 * A discount's coupon id at Stripe, the same in every environment: the marketplace names the
 * coupon itself, so looking it up needs no stored id and a retried creation finds the first.
 */
export const stripeCouponId = (discountId: string) => `mkt_${discountId}`;

const notFound = (error: unknown) => error instanceof UpstreamRejected && error.status === 404;

/**
 * The discount's coupon, looked up first and created when Stripe does not know it: a percentage
 * (`percent_off`, up to two decimals) or an amount (`amount_off` in `currency`), for the same
 * `duration` and `duration_in_months`. Returns the coupon id for `discounts[0][coupon]`. Checkouts
 * racing to create it all succeed: one makes it, the others are told it exists.
 */
export async function ensureStripeCoupon(send: Send, discount: CheckoutDiscount): Promise<string> {
  const id = stripeCouponId(discount.discount_id);
  try {
    await send({ method: "GET", path: `/v1/coupons/${encodeURIComponent(id)}` });
    return id;
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  const money =
    discount.type === "percent"
      ? { percent_off: discount.amount / (WHOLE_PRICE_BASIS_POINTS / 100) }
      : { amount_off: discount.amount, currency: (discount.currency ?? "").toLowerCase() };
  try {
    await send({
      method: "POST",
      path: "/v1/coupons",
      form: {
        id,
        name: discount.code,
        ...money,
        duration: discount.duration,
        duration_in_months: discount.duration_in_months ?? undefined,
        metadata: { marketplace_discount_id: discount.discount_id },
      },
      // No idempotency key: checkouts racing to create it would meet Stripe's 409 for a key in use.
      // The id is the guard, and Stripe refuses a second coupon with it.
    });
  } catch (error) {
    // Made meanwhile by another checkout: the coupon exists, which is all this needs.
    if (!(error instanceof UpstreamRejected && error.upstreamCode === "resource_already_exists")) throw error;
  }
  return id;
}

/** Deletes the discount's coupon, so that no new checkout can apply it; one Stripe does not know is gone already. */
export async function deleteStripeCoupon(send: Send, discountId: string): Promise<void> {
  try {
    await send({ method: "DELETE", path: `/v1/coupons/${encodeURIComponent(stripeCouponId(discountId))}` });
  } catch (error) {
    if (!notFound(error)) throw error;
  }
}
