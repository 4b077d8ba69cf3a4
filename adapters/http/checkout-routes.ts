import { Elysia, t } from "elysia";
import type { CalculatedCheckout, CheckoutRequest } from "../../application/checkout/calculate-checkout.ts";
import type { Buyer, CheckoutResponse } from "../../application/checkout/create-checkout.ts";
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
      async ({ body, principal }) =>
        asBody(
          await deps.calculateCheckout(
            cartOf(body as CheckoutBodyFields),
            // A signed-in customer's quote holds a first-purchase code against their own orders.
            principal?.role === "customer" ? { customerId: principal.userId } : undefined,
          ),
        ),
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
        set.status = 201;
        return deps.createCheckout(buyer, cartOf(body as CheckoutBodyFields));
      },
      {
        optionalAuth: "customer",
        body: CheckoutBody,
        response: { 201: CheckoutSchema },
        detail: {
          summary:
            "Create the order and open the selected gateway's checkout, signed in or as a guest with `email` (honours Idempotency-Key)",
          security: [{ bearer: [] }, {}],
        },
      },
    )
    .post(
      "/api/licenses/:id/upgrade",
      async ({ params, body, principal, set }) => {
        const retryAfter = waitFor({ customerId: principal.userId });
        if (retryAfter > 0) return rateLimitedResponse(retryAfter);
        set.status = 201;
        return deps.upgradeLicense(principal.userId, params.id, body.variant);
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
