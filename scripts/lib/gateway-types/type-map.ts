/**
 * Which official type each recorded exchange must satisfy: `stripe` for gateway_b, the
 * `@paddle/paddle-node-sdk` for gateway_a. Type names are written as the generated check file
 * imports them (see PRELUDE in check-file.ts). A route missing here fails the check, so a new
 * sandbox route cannot go unchecked.
 */
import type { GatewayName } from "../../../provider-sim/gateways/webhook-deliverer.ts";

export interface RouteTypes {
  /** The body's type; undefined when the route takes none (a body sent anyway is a finding). */
  readonly request?: string;
  /** The query's type; undefined when the route takes none. */
  readonly query?: string;
  readonly response: string;
}

const stripe = (request: string | undefined, response: string, query?: string): RouteTypes => ({
  ...(request === undefined ? {} : { request: `Stripe.${request}` }),
  ...(query === undefined ? {} : { query: `Stripe.${query}` }),
  response,
});
const stripeGet = (params: string, response: string) => stripe(undefined, response, params);

const paddle = (request: string | undefined, response: string, query?: string): RouteTypes => ({
  ...(request === undefined ? {} : { request: `Paddle.${request}` }),
  ...(query === undefined ? {} : { query: `PaddleQuery<Paddle.${query}>` }),
  response,
});
const one = (type: string) => `PaddleResponse<Paddle.${type}>`;
const page = (type: string) => `PaddlePage<Paddle.${type}>`;

const GATEWAY_B: Record<string, RouteTypes> = {
  "POST /v1/checkout/sessions": stripe("Checkout.SessionCreateParams", "Stripe.Checkout.Session"),
  "GET /v1/checkout/sessions/{id}": stripeGet("Checkout.SessionRetrieveParams", "Stripe.Checkout.Session"),
  "POST /v1/checkout/sessions/{id}/expire": stripe("Checkout.SessionExpireParams", "Stripe.Checkout.Session"),
  "POST /v1/customers": stripe("CustomerCreateParams", "Stripe.Customer"),
  "GET /v1/customers/search": stripeGet("CustomerSearchParams", "Stripe.ApiSearchResult<Stripe.Customer>"),
  "GET /v1/customers": stripeGet("CustomerListParams", "Stripe.ApiList<Stripe.Customer>"),
  "POST /v1/refunds": stripe("RefundCreateParams", "Stripe.Refund"),
  "GET /v1/refunds": stripeGet("RefundListParams", "Stripe.ApiList<Stripe.Refund>"),
  "GET /v1/refunds/{id}": stripeGet("RefundRetrieveParams", "Stripe.Refund"),
  "GET /v1/subscriptions/{id}": stripeGet("SubscriptionRetrieveParams", "Stripe.Subscription"),
  "POST /v1/subscriptions/{id}": stripe("SubscriptionUpdateParams", "Stripe.Subscription"),
  "DELETE /v1/subscriptions/{id}": stripe(
    "SubscriptionCancelParams",
    "Stripe.Subscription",
    "SubscriptionCancelParams",
  ),
  "GET /v1/products/search": stripeGet("ProductSearchParams", "Stripe.ApiSearchResult<Stripe.Product>"),
  "GET /v1/products": stripeGet("ProductListParams", "Stripe.ApiList<Stripe.Product>"),
  "POST /v1/products": stripe("ProductCreateParams", "Stripe.Product"),
  "GET /v1/products/{id}": stripeGet("ProductRetrieveParams", "Stripe.Product"),
  "POST /v1/products/{id}": stripe("ProductUpdateParams", "Stripe.Product"),
  "GET /v1/prices": stripeGet("PriceListParams", "Stripe.ApiList<Stripe.Price>"),
  "POST /v1/coupons": stripe("CouponCreateParams", "Stripe.Coupon"),
  "GET /v1/coupons": stripeGet("CouponListParams", "Stripe.ApiList<Stripe.Coupon>"),
  "GET /v1/coupons/{id}": stripeGet("CouponRetrieveParams", "Stripe.Coupon"),
  "DELETE /v1/coupons/{id}": stripe("CouponDeleteParams", "Stripe.DeletedCoupon"),
  "POST /v1/prices": stripe("PriceCreateParams", "Stripe.Price"),
  "GET /v1/prices/{id}": stripeGet("PriceRetrieveParams", "Stripe.Price"),
  "POST /v1/prices/{id}": stripe("PriceUpdateParams", "Stripe.Price"),
  "GET /v1/invoices/{id}": stripeGet("InvoiceRetrieveParams", "Stripe.Invoice"),
  "GET /v1/invoice_payments": stripeGet("InvoicePaymentListParams", "Stripe.ApiList<Stripe.InvoicePayment>"),
  "GET /v1/invoice_payments/{id}": stripeGet("InvoicePaymentRetrieveParams", "Stripe.InvoicePayment"),
  "GET /v1/payment_intents/{id}": stripeGet("PaymentIntentRetrieveParams", "Stripe.PaymentIntent"),
  "GET /v1/charges/{id}": stripeGet("ChargeRetrieveParams", "Stripe.Charge"),
  "GET /v1/disputes/{id}": stripeGet("DisputeRetrieveParams", "Stripe.Dispute"),
  "GET /v1/balance": stripeGet("BalanceRetrieveParams", "Stripe.Balance"),
  "POST /v1/billing_portal/sessions": stripe("BillingPortal.SessionCreateParams", "Stripe.BillingPortal.Session"),
  "POST /v1/invoices/create_preview": stripe("InvoiceCreatePreviewParams", "Stripe.Invoice"),
  "POST /v1/subscription_schedules": stripe("SubscriptionScheduleCreateParams", "Stripe.SubscriptionSchedule"),
  "GET /v1/subscription_schedules/{id}": stripeGet("SubscriptionScheduleRetrieveParams", "Stripe.SubscriptionSchedule"),
  "POST /v1/subscription_schedules/{id}": stripe("SubscriptionScheduleUpdateParams", "Stripe.SubscriptionSchedule"),
  "POST /v1/subscription_schedules/{id}/release": stripe(
    "SubscriptionScheduleReleaseParams",
    "Stripe.SubscriptionSchedule",
  ),
};

const GATEWAY_A: Record<string, RouteTypes> = {
  "GET /products": paddle(undefined, page("IProductResponse"), "ListProductQueryParameters"),
  "GET /products/{id}": paddle(undefined, one("IProductResponse"), "GetProductQueryParameters"),
  "POST /products": paddle("CreateProductRequestBody", one("IProductResponse")),
  "PATCH /products/{id}": paddle("UpdateProductRequestBody", one("IProductResponse")),
  "GET /prices": paddle(undefined, page("IPriceResponse"), "ListPriceQueryParameters"),
  "GET /discounts": paddle(undefined, page("IDiscountResponse"), "ListDiscountQueryParameters"),
  "GET /discounts/{id}": paddle(undefined, one("IDiscountResponse"), "GetDiscountQueryParameters"),
  "POST /discounts": paddle("CreateDiscountRequestBody", one("IDiscountResponse")),
  "PATCH /discounts/{id}": paddle("UpdateDiscountRequestBody", one("IDiscountResponse")),
  "GET /prices/{id}": paddle(undefined, one("IPriceResponse"), "GetPriceQueryParameters"),
  "POST /prices": paddle("CreatePriceRequestBody", one("IPriceResponse")),
  "PATCH /prices/{id}": paddle("UpdatePriceRequestBody", one("IPriceResponse")),
  "GET /customers": paddle(undefined, page("ICustomerResponse"), "ListCustomerQueryParameters"),
  "POST /customers": paddle("CreateCustomerRequestBody", one("ICustomerResponse")),
  "GET /customers/{id}": paddle(undefined, one("ICustomerResponse")),
  // The body's type is not exported from the package root: check-file.ts imports it as PaddlePortalSessionBody.
  "POST /customers/{id}/portal-sessions": {
    request: "PaddlePortalSessionBody",
    response: one("ICustomerPortalSessionResponse"),
  },
  "GET /transactions": paddle(undefined, page("ITransactionResponse"), "ListTransactionQueryParameters"),
  "GET /transactions/{id}/invoice": paddle(
    undefined,
    one("ITransactionInvoicePDF"),
    "GetTransactionInvoicePdfQueryParameters",
  ),
  "POST /transactions": paddle(
    "CreateTransactionRequestBody",
    one("ITransactionResponse"),
    "CreateTransactionQueryParameters",
  ),
  "GET /transactions/{id}": paddle(undefined, one("ITransactionResponse"), "GetTransactionQueryParameters"),
  "PATCH /transactions/{id}": paddle(
    "UpdateTransactionRequestBody",
    one("ITransactionResponse"),
    "UpdateTransactionQueryParameters",
  ),
  "GET /adjustments": paddle(undefined, page("IAdjustmentResponse"), "ListAdjustmentQueryParameters"),
  "POST /adjustments": paddle("CreateAdjustmentRequestBody", one("IAdjustmentResponse")),
  "GET /subscriptions/{id}": paddle(undefined, one("ISubscriptionResponse"), "GetSubscriptionQueryParameters"),
  "PATCH /subscriptions/{id}": paddle("UpdateSubscriptionRequestBody", one("ISubscriptionResponse")),
  "PATCH /subscriptions/{id}/preview": paddle("UpdateSubscriptionRequestBody", one("ISubscriptionPreviewResponse")),
  "POST /subscriptions/{id}/cancel": paddle("CancelSubscription", one("ISubscriptionResponse")),
  "GET /event-types": paddle(undefined, "PaddleResponse<Paddle.IEventTypeResponse[]>"),
};

const ROUTES: Record<GatewayName, Record<string, RouteTypes>> = { gateway_a: GATEWAY_A, gateway_b: GATEWAY_B };

/** The types of a sandbox route, or undefined when the route is not mapped (which fails the check). */
export function routeTypes(gateway: GatewayName, method: string, route: string): RouteTypes | undefined {
  return ROUTES[gateway][`${method} ${route}`];
}

/** The error body each gateway answers a refused call with. */
export const ERROR_TYPES: Record<GatewayName, string> = {
  gateway_a: "PaddleErrorResponse",
  gateway_b: "{ error: Stripe.StripeRawError }",
};

/** Paddle's notification payload types, by the `event_type` prefix (`transaction.completed` → transaction). */
const PADDLE_NOTIFICATIONS: Record<string, string> = {
  transaction: "ITransactionNotificationResponse",
  subscription: "ISubscriptionNotificationResponse",
  adjustment: "IAdjustmentNotificationResponse",
  customer: "ICustomerNotificationResponse",
  price: "IPriceNotificationResponse",
  product: "IProductNotificationResponse",
  address: "IAddressNotificationResponse",
  business: "IBusinessNotificationResponse",
};

/** `checkout.session.completed` → `CheckoutSessionCompletedEvent`, the stripe package's name for it. */
const stripeEventName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")}Event`;

/** The type a webhook event body must satisfy, or undefined when the gateway has no such event. */
export function eventType(gateway: GatewayName, type: string): string | undefined {
  if (gateway === "gateway_b")
    return /^[a-z_]+(\.[a-z_]+)+$/.test(type) ? `Stripe.${stripeEventName(type)}` : undefined;
  const payload =
    type === "subscription.created"
      ? "ISubscriptionCreatedNotificationResponse"
      : PADDLE_NOTIFICATIONS[type.split(".")[0] ?? ""];
  return payload && `PaddleEvent<Paddle.${payload}, ${JSON.stringify(type)}>`;
}
