import { Elysia, t } from "elysia";
import type { makeManageDiscounts } from "../../application/discounts/manage-discounts.ts";
import { DISCOUNT_DURATIONS, DISCOUNT_TYPES, type DiscountWithRedemptions } from "../../domain/discounts/discount.ts";
import type { DiscountState } from "../../domain/discounts/discount-change.ts";
import { Int } from "../../kit/schema-types.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named, page } from "./openapi-models.ts";
import { Cursor, IdParams, ListLimit, oneOf, pageRequest, Time, Uuid } from "./shared-schemas.ts";

type ManageDiscounts = ReturnType<typeof makeManageDiscounts>;

export interface AdminDiscountDeps
  extends Pick<
    ManageDiscounts,
    "listDiscounts" | "getDiscount" | "createDiscount" | "updateDiscount" | "disableDiscount"
  > {
  readonly auth: AuthOptions;
}

const DiscountSchema = named(
  "Discount",
  t.Object({
    id: Uuid,
    code: t.String({ description: "As created; a checkout matches it without regard to case" }),
    type: oneOf(DISCOUNT_TYPES),
    amount: Int({ description: "Basis points for percent (10,000 = 100 %), minor units of `currency` for fixed" }),
    currency: t.Nullable(t.String()),
    duration: oneOf(DISCOUNT_DURATIONS),
    duration_in_months: t.Nullable(Int()),
    max_redemptions: t.Nullable(Int()),
    redemptions: Int({ description: "Paid orders that redeemed it" }),
    starts_at: t.Nullable(Time),
    expires_at: t.Nullable(Time),
    product_ids: t.Array(Uuid, { description: "Empty: every product" }),
    variants: t.Array(t.String(), { description: "Empty: every variant" }),
    first_purchase_only: t.Boolean(),
    state: oneOf(["active", "scheduled", "expired", "used_up", "disabled"] as const),
    disabled_at: t.Nullable(Time),
    created_at: Time,
    updated_at: Time,
  }),
);

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The body's fields, loosely typed: the domain checks each and answers every problem at its path. */
const MoneyTerms = {
  code: t.String({ maxLength: 100 }),
  type: t.String({ maxLength: 20 }),
  amount: t.Number(),
  duration: t.String({ maxLength: 20 }),
};
const Reach = {
  duration_in_months: t.Optional(t.Nullable(t.Number())),
  max_redemptions: t.Optional(t.Nullable(t.Number())),
  starts_at: t.Optional(t.Nullable(t.String({ maxLength: 40 }))),
  expires_at: t.Optional(t.Nullable(t.String({ maxLength: 40 }))),
  product_ids: t.Optional(t.Array(t.String({ maxLength: 64 }), { maxItems: 1000 })),
  variants: t.Optional(t.Array(t.String({ maxLength: 20 }), { maxItems: 100 })),
  first_purchase_only: t.Optional(t.Boolean()),
};

/** Discount codes: list, one with its redemptions counted, create, change what may change, disable. */
export function createAdminDiscountRoutes(deps: AdminDiscountDeps) {
  const toBody = (discount: DiscountWithRedemptions & { state: DiscountState }) => ({
    ...discount,
    variants: [...discount.variants],
    product_ids: [...discount.product_ids],
    starts_at: iso(discount.starts_at),
    expires_at: iso(discount.expires_at),
    disabled_at: iso(discount.disabled_at),
    created_at: discount.created_at.toISOString(),
    updated_at: discount.updated_at.toISOString(),
  });
  return new Elysia({ name: "admin-discount-routes", tags: ["admin: discounts"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/discounts",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listDiscounts(filter, pageRequest({ cursor, limit }));
            return { items: found.items.map(toBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              state: t.Optional(oneOf(["active", "disabled"] as const)),
              code: t.Optional(t.String({ minLength: 1, maxLength: 40, pattern: "^[A-Za-z0-9_-]+$" })),
              product_id: t.Optional(
                t.String({ pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$" }),
              ),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(DiscountSchema) },
            detail: {
              summary: "Discounts, newest first: active or disabled, by code, or those a product can use",
            },
          },
        )
        .get("/api/admin/discounts/:id", async ({ params }) => toBody(await deps.getDiscount(params.id)), {
          params: IdParams,
          response: { 200: DiscountSchema },
          detail: { summary: "One discount, with its redemptions counted" },
        })
        .post(
          "/api/admin/discounts",
          async ({ body, principal, set }) => {
            set.status = 201;
            return toBody(await deps.createDiscount(body, principal.userId));
          },
          {
            body: t.Object({ ...MoneyTerms, ...Reach }, { additionalProperties: false }),
            response: { 201: DiscountSchema },
            detail: {
              summary: "Create a discount code",
              description:
                "`percent` amounts are basis points (1 to 10,000); `fixed` ones minor units of the marketplace's currency. `duration_in_months` exactly when `repeating`. Every problem is a field error at its path; a code an active discount has (any case) is `409` `DISCOUNT_CODE_TAKEN`.",
            },
          },
        )
        .patch(
          "/api/admin/discounts/:id",
          async ({ params, body, principal }) => toBody(await deps.updateDiscount(params.id, body, principal.userId)),
          {
            params: IdParams,
            body: t.Object(
              {
                code: t.Optional(MoneyTerms.code),
                type: t.Optional(MoneyTerms.type),
                amount: t.Optional(MoneyTerms.amount),
                duration: t.Optional(MoneyTerms.duration),
                ...Reach,
              },
              { additionalProperties: false },
            ),
            response: { 200: DiscountSchema },
            detail: {
              summary: "Change what a discount may change: its reach, its window and its limit",
              description:
                "`max_redemptions` (not below the redemptions made), `starts_at`, `expires_at`, `product_ids`, `variants`, `first_purchase_only`. Its money terms (code, type, amount, duration) are `422` `IMMUTABLE` at their path; a disabled discount is `409` `DISCOUNT_DISABLED`.",
            },
          },
        )
        .post(
          "/api/admin/discounts/:id/disable",
          async ({ params, principal }) => toBody(await deps.disableDiscount(params.id, principal.userId)),
          {
            params: IdParams,
            response: { 200: DiscountSchema },
            detail: {
              summary: "Disable a discount for good (idempotent)",
              description:
                "Its code checks out no more and becomes free for a new discount; orders that redeemed it keep their terms.",
            },
          },
        ),
    );
}
