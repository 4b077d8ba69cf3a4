import { t } from "elysia";
import { MAX_CHECKOUT_ITEMS } from "../../domain/checkout/checkout.ts";
import { GUEST_NAME_MAX_LENGTH } from "../../domain/checkout/guest-buyer.ts";
import { Int } from "../../kit/schema-types.ts";
import { GatewaySchema, VariantSchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { PricedItemSchema, QuantitySchema } from "./order-schemas.ts";

/** What checkout routes take and answer. */
export const CheckoutBody = named(
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

const Money = (description: string) => Int({ description: `${description}, in minor units of \`currency\`` });

export const AppliedDiscountSchema = named(
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

export const CalculatedCheckoutSchema = named(
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

export const CheckoutSchema = named(
  "Checkout",
  t.Object({
    order_id: t.String({ format: "uuid" }),
    total: Money("What the order costs, the discount taken off"),
    due_today: Money("What is charged at checkout"),
    discount_total: Money("What the discount code takes off the first payment"),
    discount: t.Nullable(AppliedDiscountSchema),
    currency: t.String(),
    payment_gateway: GatewaySchema,
    failed_over: t.Boolean({
      description:
        "Whether the gateway first chosen was down (an outage, or its circuit breaker open) and the checkout opened at `payment_gateway` instead; never when the customer named the gateway",
    }),
    failed_over_from: t.Nullable(GatewaySchema),
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
