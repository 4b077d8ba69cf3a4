import type { FormObject, FormValue } from "../form-body.ts";
import type { GatewayBCatalog } from "./catalog.ts";
import type { StripeCoupon } from "./coupons.ts";
import { StripeError } from "./errors.ts";
import type { SessionLine } from "./model.ts";
import {
  metadata,
  oneOf,
  optionalHash,
  optionalInteger,
  optionalString,
  requiredInteger,
  requiredList,
  requiredString,
} from "./params.ts";

export interface SessionInput {
  readonly mode: "payment" | "subscription";
  readonly lines: readonly SessionLine[];
  readonly success_url: string | null;
  readonly cancel_url: string | null;
  readonly client_reference_id: string | null;
  readonly customer_email: string | null;
  readonly metadata: Record<string, string>;
  readonly trial_period_days: number | null;
  readonly subscription_metadata: Record<string, string>;
  /** `payment_intent_data[metadata]`: what the payment's charge (and its refund events) carry. */
  readonly payment_metadata: Record<string, string>;
  /** `discounts[0][coupon]`, as it read when the session was made. */
  readonly coupon: StripeCoupon | null;
}

/** Finds a coupon or throws Stripe's `resource_missing` naming `param`. */
export type CouponLookup = (id: string, param: string) => StripeCoupon;

/**
 * `discounts[0][coupon]`: one coupon at most, that exists, is still valid, and takes an amount off
 * in the session's own currency. The sandbox has no promotion codes.
 */
function sessionCoupon(value: FormValue | undefined, currency: string, find: CouponLookup): StripeCoupon | null {
  if (value === undefined || value === "") return null;
  if (!Array.isArray(value) || value.length > 1)
    throw StripeError.invalid("discounts", "expected at most one discount");
  if (value.length === 0) return null;
  const entry = optionalHash(value[0], "discounts[0]") ?? {};
  const unknown = Object.keys(entry).find((key) => key !== "coupon" && key !== "promotion_code");
  if (unknown !== undefined) {
    const param = `discounts[0][${unknown}]`;
    throw new StripeError(
      400,
      "invalid_request_error",
      `Received unknown parameter: ${param}`,
      "parameter_unknown",
      param,
    );
  }
  const code = optionalString(entry.promotion_code, "discounts[0][promotion_code]");
  if (code !== null) throw StripeError.noSuch("promotion_code", code, "discounts[0][promotion_code]");
  const param = "discounts[0][coupon]";
  const coupon = find(requiredString(entry.coupon, param), param);
  if (!coupon.valid) {
    throw StripeError.invalid(param, `the coupon ${coupon.id} is no longer valid`, "coupon_expired");
  }
  if (coupon.currency !== null && coupon.currency !== currency) {
    throw StripeError.invalid(
      param,
      `the coupon ${coupon.id} takes an amount off in ${coupon.currency}, but the session is in ${currency}`,
    );
  }
  return coupon;
}

function line(value: FormValue, param: string, catalog: GatewayBCatalog): SessionLine {
  const item = optionalHash(value, param) ?? {};
  const quantity = requiredInteger(item.quantity, `${param}[quantity]`, 1, 999_999);
  const priceId = optionalString(item.price, `${param}[price]`);
  const data = optionalHash(item.price_data, `${param}[price_data]`);
  if ((priceId === null) === (data === null)) {
    throw StripeError.invalid(param, "exactly one of price and price_data is required");
  }
  if (priceId !== null) {
    const price = catalog.price(priceId, `${param}[price]`);
    if (!price.active) throw StripeError.invalid(`${param}[price]`, `the price ${priceId} is not active`);
    return { price, product_name: catalog.product(price.product).name, quantity };
  }
  const at = `${param}[price_data]`;
  const form = data as FormObject;
  const productId = optionalString(form.product, `${at}[product]`);
  const productData = optionalHash(form.product_data, `${at}[product_data]`);
  if ((productId === null) === (productData === null)) {
    throw StripeError.invalid(at, "exactly one of product and product_data is required");
  }
  const product = productId
    ? catalog.product(productId, `${at}[product]`)
    : catalog.inlineProduct(requiredString(productData?.name, `${at}[product_data][name]`));
  // An inline price is a price object of its own at Stripe: a later change can name it.
  return { price: catalog.addPrice(catalog.buildPrice(form, product.id, at)), product_name: product.name, quantity };
}

/** The parameters of `POST /v1/checkout/sessions`, checked as Stripe checks them. */
export function sessionInput(form: FormObject, catalog: GatewayBCatalog, findCoupon: CouponLookup): SessionInput {
  const mode = oneOf(form.mode, "mode", ["payment", "subscription"] as const);
  const lines = requiredList(form.line_items, "line_items").map((item, i) => line(item, `line_items[${i}]`, catalog));
  if (new Set(lines.map((entry) => entry.price.currency)).size > 1) {
    throw StripeError.invalid("line_items", "all line items must use the same currency");
  }
  const recurring = lines.some((entry) => entry.price.recurring !== null);
  if (mode === "subscription" && !recurring) {
    throw StripeError.invalid("line_items", "subscription mode needs at least one recurring price");
  }
  if (mode === "payment" && recurring) {
    throw StripeError.invalid("line_items", "payment mode cannot include recurring prices; use subscription mode");
  }
  const subscriptionData = optionalHash(form.subscription_data, "subscription_data");
  if (subscriptionData && mode !== "subscription") {
    throw StripeError.invalid("subscription_data", "can only be used in subscription mode");
  }
  const paymentData = optionalHash(form.payment_intent_data, "payment_intent_data");
  if (paymentData && mode !== "payment") {
    throw StripeError.invalid("payment_intent_data", "can only be used in payment mode");
  }
  return {
    mode,
    lines,
    success_url: optionalString(form.success_url, "success_url"),
    cancel_url: optionalString(form.cancel_url, "cancel_url"),
    client_reference_id: optionalString(form.client_reference_id, "client_reference_id", 200),
    customer_email: optionalString(form.customer_email, "customer_email"),
    metadata: metadata(form.metadata, "metadata"),
    trial_period_days: optionalInteger(
      subscriptionData?.trial_period_days,
      "subscription_data[trial_period_days]",
      1,
      730,
    ),
    subscription_metadata: metadata(subscriptionData?.metadata, "subscription_data[metadata]"),
    payment_metadata: metadata(paymentData?.metadata, "payment_intent_data[metadata]"),
    coupon: sessionCoupon(form.discounts, lines[0]?.price.currency ?? "usd", findCoupon),
  };
}
