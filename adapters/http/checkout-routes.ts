import { Elysia, t } from "elysia";
import type { CalculatedCheckout, CheckoutRequest } from "../../application/checkout/calculate-checkout.ts";
import type { CheckoutResponse } from "../../application/checkout/create-checkout.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { GatewaySchema, oneOf } from "./catalog-schemas.ts";
import { Int } from "./schema-types.ts";

export interface CheckoutDeps {
  readonly auth: AuthOptions;
  calculateCheckout(request: CheckoutRequest): Promise<CalculatedCheckout>;
  createCheckout(
    customerId: string,
    request: CheckoutRequest,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: CheckoutResponse; replayed: boolean }>;
}

const CheckoutBody = t.Object(
  {
    items: t.Array(
      t.Object(
        {
          product_id: t.String({ maxLength: 64 }),
          variant: oneOf(["regular", "extended", "monthly", "yearly"]),
          quantity: t.Optional(Int({ minimum: 1, maximum: 100 })),
          options: t.Optional(t.Record(t.String({ maxLength: 40 }), t.Union([t.String(), t.Number(), t.Boolean()]))),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
    payment_gateway: t.Optional(GatewaySchema),
  },
  { additionalProperties: false },
);

export function createCheckoutRoutes(deps: CheckoutDeps) {
  return new Elysia({ name: "checkout-routes", tags: ["checkout"] })
    .use(createAuth(deps.auth))
    .post("/api/checkout/calculate", ({ body }) => deps.calculateCheckout(body as CheckoutRequest), {
      body: CheckoutBody,
      detail: {
        summary: "Per-item amounts, subtotal, total, due today (trial aware) and the gateway that would be used",
      },
    })
    .post(
      "/api/checkout/create",
      async ({ body, principal, headers, set }) => {
        const key = headers["idempotency-key"];
        const result = await deps.createCheckout(principal.userId, body as CheckoutRequest, key);
        set.status = result.status;
        if (result.replayed) set.headers["idempotent-replayed"] = "true";
        return result.body;
      },
      {
        auth: "customer",
        body: CheckoutBody,
        headers: t.Object({ "idempotency-key": t.Optional(t.String({ minLength: 1, maxLength: 255 })) }),
        detail: {
          summary: "Create the order and open the selected gateway's checkout (honours Idempotency-Key)",
          security: [{ bearer: [] }],
        },
      },
    );
}
