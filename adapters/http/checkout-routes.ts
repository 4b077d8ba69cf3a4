import { Elysia, t } from "elysia";
import type { CalculatedCheckout, CheckoutRequest } from "../../application/checkout/calculate-checkout.ts";
import type { Buyer } from "../../application/checkout/create-checkout.ts";
import type { CheckoutResponse } from "../../application/checkout/open-checkout.ts";
import { GatewayUnavailable } from "../../domain/checkout/errors.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { CalculatedCheckoutSchema, CheckoutBody, CheckoutSchema } from "./checkout-schemas.ts";
import { createTokenBuckets, type RateLimit, rateLimitedResponse } from "./rate-limit.ts";
import { asBody } from "./serializers.ts";

export interface CheckoutDeps {
  readonly auth: AuthOptions;
  calculateCheckout(request: CheckoutRequest, buyer?: { readonly customerId: string }): Promise<CalculatedCheckout>;
  createCheckout(buyer: Buyer, request: CheckoutRequest): Promise<CheckoutResponse>;
  upgradeLicense(customerId: string, licenseId: string, variant: "extended"): Promise<CheckoutResponse>;
}

type CheckoutBodyFields = CheckoutRequest & { readonly email?: string; readonly name?: string };

/** A signed-in customer buys as the account; anyone else gives an address and buys as a guest. */
function buyerOf(principal: { userId: string } | undefined, body: CheckoutBodyFields): Buyer {
  if (principal) {
    if (body.email !== undefined || body.name !== undefined) {
      throw new ValidationFailed([
        {
          path: body.email !== undefined ? "/email" : "/name",
          message: "is for checking out without signing in; a signed-in order goes to the account's address",
          code: "GUEST_FIELD_WHEN_SIGNED_IN",
        },
      ]);
    }
    return { customerId: principal.userId };
  }
  if (body.email === undefined) {
    throw new ValidationFailed([
      { path: "/email", message: "is needed to check out without signing in", code: "EMAIL_REQUIRED" },
    ]);
  }
  return { guest: { email: body.email, name: body.name } };
}

/** A gateway down with its breaker open says when to come back. */
const withRetryAfter =
  (set: { headers: Record<string, string | number> }) =>
  (error: unknown): never => {
    if (error instanceof GatewayUnavailable && error.retryAfterSeconds !== undefined) {
      set.headers["retry-after"] = String(error.retryAfterSeconds);
    }
    throw error;
  };

const cartOf = ({ email: _email, name: _name, ...cart }: CheckoutBodyFields): CheckoutRequest => cart;

/**
 * `perCustomer` limits how often one customer opens a checkout, from whatever addresses: the
 * address limit (rate-limit.ts) alone lets one account spread its orders over many.
 */
export function createCheckoutRoutes(
  deps: CheckoutDeps,
  limits: { readonly perCustomer?: RateLimit | undefined; readonly now?: () => number } = {},
) {
  const buckets = createTokenBuckets(limits.now);
  // A guest is limited by the client address alone: a bucket per email address would let anyone
  // use up someone else's.
  const waitFor = (buyer: Buyer) =>
    limits.perCustomer && "customerId" in buyer
      ? buckets.take(`checkout-customer|${buyer.customerId}`, limits.perCustomer)
      : 0;
  return new Elysia({ name: "checkout-routes", tags: ["checkout"] })
    .use(createAuth(deps.auth))
    .post(
      "/api/checkout/calculate",
      async ({ body, principal }) => {
        const { route: _, ...quote } = await deps.calculateCheckout(
          cartOf(body as CheckoutBodyFields),
          // A signed-in customer's quote holds a first-purchase code against their own orders.
          principal?.role === "customer" ? { customerId: principal.userId } : undefined,
        );
        return asBody(quote);
      },
      {
        optionalAuth: ["customer", "admin"],
        body: CheckoutBody,
        response: { 200: CalculatedCheckoutSchema },
        detail: {
          summary:
            "Per-item amounts, subtotal, discount, total, due today (trial aware) and the gateway that would be used; signed in, a first-purchase code is checked against the customer's orders",
          security: [{ bearer: [] }, {}],
        },
      },
    )
    .post(
      "/api/checkout/create",
      async ({ body, principal, set }) => {
        const buyer = buyerOf(principal, body as CheckoutBodyFields);
        const retryAfter = waitFor(buyer);
        if (retryAfter > 0) return rateLimitedResponse(retryAfter);
        const checkout = await deps
          .createCheckout(buyer, cartOf(body as CheckoutBodyFields))
          .catch(withRetryAfter(set));
        set.status = 201;
        return checkout;
      },
      {
        optionalAuth: "customer",
        body: CheckoutBody,
        response: { 201: CheckoutSchema },
        detail: {
          summary:
            "Create the order and open the selected gateway's checkout, signed in or as a guest with `email` (honours Idempotency-Key)",
          description:
            "When the router chose the gateway (none was named, or the one named is not enabled for every item) and it is down (time-out, no connection, 5xx, 429, or its circuit breaker open), the checkout opens at the next gateway every item enables: `failed_over: true` and `failed_over_from` say so. A gateway named in `payment_gateway` that is down is `503` `GATEWAY_UNAVAILABLE` with `gateway` and `alternatives` (the gateways every item enables whose breakers are not open), and `Retry-After` while its breaker is open. A refusal by the gateway (4xx) is its `502` `GATEWAY_*` and never fails over.",
          security: [{ bearer: [] }, {}],
        },
      },
    )
    .post(
      "/api/licenses/:id/upgrade",
      async ({ params, body, principal, set }) => {
        const retryAfter = waitFor({ customerId: principal.userId });
        if (retryAfter > 0) return rateLimitedResponse(retryAfter);
        const checkout = await deps
          .upgradeLicense(principal.userId, params.id, body.variant)
          .catch(withRetryAfter(set));
        set.status = 201;
        return checkout;
      },
      {
        auth: "customer",
        params: t.Object({ id: t.String({ maxLength: 64 }) }),
        body: t.Object({ variant: t.Literal("extended") }, { additionalProperties: false }),
        response: { 201: CheckoutSchema },
        detail: {
          tags: ["customer"],
          summary:
            "Upgrade my one-time license (regular to extended) by paying the difference (honours Idempotency-Key)",
          description:
            "Opens an order of its own, linked to the original (`metadata.upgrade_of`), for the difference between the two current prices for each seat, at the original order's gateway. Paid, the same license becomes `extended` under a new key; the old key keeps validating for `LICENSE_UPGRADE_GRACE_HOURS`, then answers `replaced`. Another customer's license is `404`; a subscription's, a revoked or suspended one, one already extended or with an upgrade waiting for payment `409` `LICENSE_UPGRADE_*`; a product that does not sell extended `422`.",
          security: [{ bearer: [] }],
        },
      },
    );
}
