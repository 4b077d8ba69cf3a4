import { Elysia } from "elysia";
import { createFaultInjection } from "../../fault-injection.ts";
import type { FaultQueue } from "../../faults.ts";
import { decodeFormBody, type FormObject } from "../form-body.ts";
import { checkBearer, createSandboxHandler } from "../sandbox-handler.ts";
import { createGatewayBBillingRoutes, expands } from "./billing-routes.ts";
import { StripeError } from "./errors.ts";
import { optionalInteger, requiredString } from "./params.ts";
import type { GatewayBSandbox } from "./sandbox.ts";
import { sessionInput } from "./session-request.ts";

function authorize(apiKey: string) {
  return (request: Request) => {
    const check = checkBearer(request, apiKey);
    if (check === "missing") {
      throw new StripeError(
        401,
        "invalid_request_error",
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.",
      );
    }
    if (check === "wrong") throw new StripeError(401, "invalid_request_error", "Invalid API Key provided.");
  };
}

function form(raw: Uint8Array): FormObject {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw new StripeError(400, "invalid_request_error", "The request body is not valid UTF-8.");
  }
  const decoded = decodeFormBody(text);
  if (!decoded) throw new StripeError(400, "invalid_request_error", "The request body is not a valid form.");
  return decoded;
}

/** The Stripe subset of docs/gateway-wire-formats.md under `/gateway_b/v1`: form bodies in, JSON out. */
export function createGatewayBRoutes(sandbox: GatewayBSandbox, apiKey: string, faults: FaultQueue) {
  const { catalog, billing, coupons } = sandbox;
  const handle = sandbox.idempotent(createSandboxHandler(authorize(apiKey)));
  return new Elysia({ prefix: "/gateway_b/v1" })
    .use(createFaultInjection({ faults }))
    .post(
      "/checkout/sessions",
      handle(({ raw }) => billing.createSession(sessionInput(form(raw), catalog, coupons.coupon))),
      { fault: "gateway_b_checkout_sessions" },
    )
    .get(
      "/checkout/sessions/:id",
      handle(({ params }) => billing.session(params.id as string)),
    )
    .post(
      "/checkout/sessions/:id/expire",
      handle(({ params }) => billing.expireSession(params.id as string)),
    )
    .post(
      "/refunds",
      handle(({ raw }) => sandbox.refund(form(raw))),
    )
    .get(
      "/refunds",
      handle(({ query }) => sandbox.listRefunds(query)),
    )
    .post(
      "/billing_portal/sessions",
      handle(({ raw }) => sandbox.portal.createSession(form(raw))),
    )
    .get(
      "/subscriptions/:id",
      handle(({ params, request }) => {
        const subscription = billing.subscriptions.subscription(params.id as string);
        if (!expands(request, "discounts")) return subscription;
        return { ...subscription, discounts: subscription.discounts.map(billing.discount) };
      }),
    )
    .post(
      "/subscriptions/:id",
      handle(({ params, raw }) => sandbox.updateSubscription(params.id as string, form(raw))),
    )
    .post(
      "/invoices/create_preview",
      handle(({ raw }) => sandbox.previewInvoice(form(raw))),
    )
    .post(
      "/subscription_schedules",
      handle(({ raw }) => sandbox.createSchedule(form(raw))),
    )
    .get(
      "/subscription_schedules/:id",
      handle(({ params }) => billing.subscriptions.schedule(params.id as string)),
    )
    .post(
      "/subscription_schedules/:id",
      handle(({ params, raw }) => sandbox.updateSchedule(params.id as string, form(raw))),
    )
    .post(
      "/subscription_schedules/:id/release",
      handle(({ params }) => sandbox.releaseSchedule(params.id as string)),
    )
    .delete(
      "/subscriptions/:id",
      handle(({ params }) => sandbox.cancel(params.id as string)),
    )
    .get(
      "/products/search",
      handle(({ query }) => {
        const found = catalog.searchProducts(requiredString(query.query, "query"));
        const limit = optionalInteger(query.limit, "limit", 1, 100) ?? 10;
        const offset = optionalInteger(query.page, "page", 0, Number.MAX_SAFE_INTEGER) ?? 0;
        const hasMore = offset + limit < found.length;
        return {
          object: "search_result",
          url: "/v1/products/search",
          has_more: hasMore,
          next_page: hasMore ? String(offset + limit) : null,
          data: found.slice(offset, offset + limit),
        };
      }),
    )
    .post(
      "/products",
      handle(({ raw }) => catalog.createProduct(form(raw))),
    )
    .post(
      "/coupons",
      handle(({ raw }) => coupons.create(form(raw))),
    )
    .get(
      "/coupons",
      handle(({ query }) => coupons.list(optionalInteger(query.limit, "limit", 1, 100) ?? 10)),
    )
    .get(
      "/coupons/:id",
      handle(({ params }) => coupons.coupon(params.id as string)),
    )
    .delete(
      "/coupons/:id",
      handle(({ params }) => coupons.delete(params.id as string)),
    )
    .get(
      "/products/:id",
      handle(({ params }) => catalog.product(params.id as string)),
    )
    .post(
      "/prices",
      handle(({ raw }) => catalog.createPrice(form(raw))),
    )
    .get(
      "/prices/:id",
      handle(({ params }) => catalog.price(params.id as string)),
    )
    .post(
      "/prices/:id",
      handle(({ params, raw }) => catalog.updatePrice(params.id as string, form(raw))),
    )
    .use(createGatewayBBillingRoutes(sandbox, handle));
}
