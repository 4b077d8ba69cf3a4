import { Elysia, t } from "elysia";
import type { CalculatedCheckout, CheckoutRequest } from "../../application/checkout/calculate-checkout.ts";
import type { Buyer, CheckoutResponse } from "../../application/checkout/create-checkout.ts";
import { MAX_CHECKOUT_ITEMS } from "../../domain/checkout/checkout.ts";
import { GUEST_NAME_MAX_LENGTH } from "../../domain/checkout/guest-buyer.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { Int } from "../../kit/schema-types.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { GatewaySchema, VariantSchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { PricedItemSchema, QuantitySchema } from "./order-schemas.ts";
import { createTokenBuckets, type RateLimit, rateLimitedResponse } from "./rate-limit.ts";
import { asBody } from "./serializers.ts";

export interface CheckoutDeps {
  readonly auth: AuthOptions;
  calculateCheckout(request: CheckoutRequest): Promise<CalculatedCheckout>;
  createCheckout(
    buyer: Buyer,
    request: CheckoutRequest,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: CheckoutResponse; replayed: boolean }>;
  upgradeLicense(
    customerId: string,
    licenseId: string,
    variant: "extended",
    idempotencyKey?: string,
  ): Promise<{ status: number; body: CheckoutResponse; replayed: boolean }>;
}

const CheckoutBody = named(
  "CheckoutRequest",
  t.Object(
    {
      items: t.Array(
        t.Object(
          {
            product_id: t.String({ maxLength: 64 }),
            variant: VariantSchema,
            quantity: t.Optional(QuantitySchema),
            options: t.Optional(
              t.Record(t.String({ maxLength: 40 }), t.Union([t.String(), t.Number(), t.Boolean()]), {
                description: "Choices the product asks for, such as the `domain` of a dedicated installation",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: MAX_CHECKOUT_ITEMS },
      ),
      payment_gateway: t.Optional(GatewaySchema),
      discount_code: t.Optional(t.String({ minLength: 1, maxLength: 64, description: "A discount code, in any case" })),
      email: t.Optional(
        t.String({
          maxLength: 320,
          description:
            "A guest's address, when checking out without signing in: it gets the receipt, the delivery emails and a link to set a password",
        }),
      ),
      name: t.Optional(
        t.String({ maxLength: GUEST_NAME_MAX_LENGTH * 2, description: "A guest's name, to greet them in emails" }),
      ),
    },
    { additionalProperties: false },
  ),
);

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

/**
 * An answer stored before checkouts carried a discount is replayed as one without a discount: the
 * same `Idempotency-Key` gives the same checkout, in today's shape.
 */
const withDiscountFields = (body: CheckoutResponse): CheckoutResponse => ({
  ...body,
  discount_total: body.discount_total ?? 0,
  discount: body.discount ?? null,
});

const cartOf = ({ email: _email, name: _name, ...cart }: CheckoutBodyFields): CheckoutRequest => cart;

const Money = (description: string) => Int({ description: `${description}, in minor units of \`currency\`` });

const AppliedDiscountSchema = named(
  "AppliedDiscount",
  t.Object({
    discount_id: t.String({ format: "uuid" }),
    code: t.String(),
    type: t.Union([t.Literal("percent"), t.Literal("fixed")]),
    amount: Int({ description: "Basis points of the price for `percent`, minor units for `fixed`" }),
    duration: t.Union([t.Literal("once"), t.Literal("repeating"), t.Literal("forever")]),
    duration_in_months: t.Nullable(Int()),
    total: Money("Taken off the first payment"),
    payments: t.Nullable(Int({ description: "Payments it lowers, the first included; null: every one" })),
    renewal_amount: t.Nullable(
      Money("What each renewal costs before tax while the discount lasts; null when no renewal is discounted"),
    ),
    renewal_full_amount: t.Nullable(
      Money("What each renewal costs before tax once it has ended; null when nothing renews"),
    ),
  }),
);

const CalculatedCheckoutSchema = named(
  "CalculatedCheckout",
  t.Object({
    items: t.Array(PricedItemSchema),
    subtotal: Money("The sum of the items"),
    discount_total: Money("What the discount code takes off the first payment"),
    total: Money("What the order costs, the discount taken off"),
    due_today: Money("What is charged at checkout (items in a trial are due when it ends)"),
    currency: t.String(),
    payment_gateway: GatewaySchema,
    discount: t.Nullable(AppliedDiscountSchema),
  }),
);

const CheckoutSchema = named(
  "Checkout",
  t.Object({
    order_id: t.String({ format: "uuid" }),
    total: Money("What the order costs, the discount taken off"),
    due_today: Money("What is charged at checkout"),
    discount_total: Money("What the discount code takes off the first payment"),
    discount: t.Nullable(AppliedDiscountSchema),
    currency: t.String(),
    payment_gateway: GatewaySchema,
    checkout: t.Object({
      url: t.String({ description: "Where the customer pays: the gateway's hosted checkout" }),
      session_id: t.String(),
      client_key: t.Optional(t.String({ description: "For the gateway's client-side checkout" })),
    }),
    order_status_url: t.Optional(
      t.String({
        description:
          "The order status page; a guest's carries the order's signed access, so keep it private. A guest's replayed answer (the same `Idempotency-Key`) leaves it out: the emails and the gateway's return address carry it",
      }),
    ),
  }),
);

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
      async ({ body }) => asBody(await deps.calculateCheckout(body as CheckoutRequest)),
      {
        body: CheckoutBody,
        response: { 200: CalculatedCheckoutSchema },
        detail: {
          summary: "Per-item amounts, subtotal, total, due today (trial aware) and the gateway that would be used",
        },
      },
    )
    .post(
      "/api/checkout/create",
      async ({ body, principal, headers, set }) => {
        const buyer = buyerOf(principal, body as CheckoutBodyFields);
        const retryAfter = waitFor(buyer);
        if (retryAfter > 0) return rateLimitedResponse(retryAfter);
        const key = headers["idempotency-key"];
        const result = await deps.createCheckout(buyer, cartOf(body as CheckoutBodyFields), key);
        set.status = result.status;
        if (result.replayed) set.headers["idempotent-replayed"] = "true";
        return withDiscountFields(result.body);
      },
      {
        optionalAuth: "customer",
        body: CheckoutBody,
        headers: t.Object({ "idempotency-key": t.Optional(t.String({ minLength: 1, maxLength: 255 })) }),
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
      async ({ params, body, principal, headers, set }) => {
        const retryAfter = waitFor({ customerId: principal.userId });
        if (retryAfter > 0) return rateLimitedResponse(retryAfter);
        const result = await deps.upgradeLicense(principal.userId, params.id, body.variant, headers["idempotency-key"]);
        set.status = result.status;
        if (result.replayed) set.headers["idempotent-replayed"] = "true";
        return withDiscountFields(result.body);
      },
      {
        auth: "customer",
        params: t.Object({ id: t.String({ maxLength: 64 }) }),
        body: t.Object({ variant: t.Literal("extended") }, { additionalProperties: false }),
        headers: t.Object({ "idempotency-key": t.Optional(t.String({ minLength: 1, maxLength: 255 })) }),
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
