import { Elysia, t } from "elysia";
import type { BillingPortal } from "../../application/customers/billing-portal.ts";
import type { PlanChanged, PlanOptions } from "../../application/customers/change-plan.ts";
import type { CustomerSubscription } from "../../application/customers/ports.ts";
import type { BillingInterval } from "../../domain/catalog/pricing.ts";
import { Int } from "../../kit/schema-types.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named } from "./openapi-models.ts";
import { redirectOrJson } from "./redirect-or-json.ts";
import { IdParams, Time } from "./shared-schemas.ts";

export interface CustomerSubscriptionDeps {
  readonly auth: AuthOptions;
  cancelCustomerSubscription(customerId: string, id: string): Promise<CustomerSubscription>;
  resumeCustomerSubscription(customerId: string, id: string): Promise<CustomerSubscription>;
  readonly billingPortal: Pick<BillingPortal, "open" | "openByLink">;
  planOptions(customerId: string, id: string): Promise<PlanOptions>;
  changePlan(customerId: string, id: string, variant: BillingInterval): Promise<PlanChanged>;
}

const BillingPortalLink = named(
  "BillingPortalLink",
  t.Object({ url: t.String({ description: "The gateway's customer portal page, short-lived: open it now" }) }),
);

const PORTAL_ERRORS =
  "An ended subscription is `409` `SUBSCRIPTION_CANCELLED`; one the gateway has not confirmed yet `409` `SUBSCRIPTION_UNCONFIRMED`; another customer's or an unknown one `404` `SUBSCRIPTION_NOT_FOUND`.";

const NullableTime = t.Nullable(Time);

/** One subscription as `GET /api/subscriptions` lists it. */
export const SubscriptionBody = named(
  "Subscription",
  t.Object({
    id: t.String({ format: "uuid" }),
    order_id: t.String({ format: "uuid" }),
    product_id: t.String({ format: "uuid" }),
    product_name: t.String(),
    gateway: t.String(),
    status: t.String(),
    billing_interval: t.String(),
    trial_ends_at: NullableTime,
    current_period_end: NullableTime,
    cancelled_at: NullableTime,
    cancel_at_period_end: t.Boolean(),
    pending_interval: t.Nullable(
      t.String({ description: "The interval the subscription moves to at `pending_at`, the end of the paid period" }),
    ),
    pending_at: NullableTime,
    discount: t.Nullable(
      t.Object(
        {
          code: t.String(),
          currency: t.String(),
          renewal_amount: Int({
            description: "What each renewal costs before tax while the code lasts, in minor units",
          }),
          renewals_left: t.Nullable(Int({ description: "Renewals the code still lowers; null: every one" })),
        },
        { description: "The discount code the subscription was bought with, while it still lowers renewals" },
      ),
    ),
  }),
);

export const toSubscriptionBody = (subscription: CustomerSubscription) => ({
  ...subscription,
  trial_ends_at: subscription.trial_ends_at?.toISOString() ?? null,
  current_period_end: subscription.current_period_end?.toISOString() ?? null,
  cancelled_at: subscription.cancelled_at?.toISOString() ?? null,
  pending_at: subscription.pending_at?.toISOString() ?? null,
});

const Interval = t.Union([t.Literal("monthly"), t.Literal("yearly")]);
const Timing = t.Union([t.Literal("now"), t.Literal("period_end")], {
  description:
    "`now`: the difference is billed at once (credit for the unused time, the new price from now); `period_end`: nothing now, the new price from the end of the paid period",
});

const PlanOptionsBody = named(
  "PlanOptions",
  t.Object({
    subscription_id: t.String({ format: "uuid" }),
    billing_interval: Interval,
    pending: t.Nullable(t.Object({ billing_interval: Interval, at: Time })),
    options: t.Array(
      t.Object({
        billing_interval: Interval,
        effective: Timing,
        price: Int({ description: "The plan's price per unit now, in minor units" }),
        currency: t.String(),
        due_now: Int({ description: "Charged at once, tax included, after the credit for unused time" }),
        next_amount: Int({ description: "Each renewal on the new plan, tax included" }),
        next_billing_at: NullableTime,
      }),
    ),
  }),
);

const PlanChangedBody = named(
  "PlanChanged",
  t.Object({
    subscription: SubscriptionBody,
    change: t.Object({ billing_interval: Interval, effective: Timing, at: Time }),
  }),
);

const PLAN_ERRORS =
  "A past-due subscription is `409` `SUBSCRIPTION_PAST_DUE` (update the card first), one in its trial `409` `SUBSCRIPTION_TRIALING`, one set to end `409` `SUBSCRIPTION_CANCELLING`, an ended one `409` `SUBSCRIPTION_CANCELLED`; a refusal of the gateway's the subscriber can act on (a declined card, a renewal about to be billed) `409` `PLAN_CHANGE_REFUSED` with the gateway's words; another customer's `404`.";

/** A customer's own subscriptions; another customer's are 404, never 403 and never their data. */
export function createCustomerSubscriptionRoutes(deps: CustomerSubscriptionDeps) {
  return new Elysia({ name: "customer-subscription-routes", tags: ["customer"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "customer", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .post(
          "/api/subscriptions/:id/cancel",
          async ({ params, principal }) =>
            toSubscriptionBody(await deps.cancelCustomerSubscription(principal.userId, params.id)),
          {
            params: IdParams,
            response: { 200: SubscriptionBody },
            detail: {
              summary: "End my subscription at the end of its paid period (delivery continues until then)",
            },
          },
        )
        .post(
          "/api/subscriptions/:id/resume",
          async ({ params, principal }) =>
            toSubscriptionBody(await deps.resumeCustomerSubscription(principal.userId, params.id)),
          {
            params: IdParams,
            response: { 200: SubscriptionBody },
            detail: { summary: "Keep my subscription after all: withdraw its cancellation before the period ends" },
          },
        )
        .get(
          "/api/subscriptions/:id/plan-options",
          async ({ params, principal }) => {
            const plans = await deps.planOptions(principal.userId, params.id);
            return {
              subscription_id: plans.subscription_id,
              billing_interval: plans.variant,
              pending: plans.pending
                ? { billing_interval: plans.pending.variant, at: plans.pending.at.toISOString() }
                : null,
              options: plans.options.map(({ variant, next_billing_at, ...option }) => ({
                billing_interval: variant,
                ...option,
                next_billing_at: next_billing_at?.toISOString() ?? null,
              })),
            };
          },
          {
            params: IdParams,
            response: { 200: PlanOptionsBody },
            detail: {
              summary: "The plans my subscription can move to, with what each would bill now and at each renewal",
              description: `Each amount is the gateway's own preview (Stripe \`POST /v1/invoices/create_preview\`, Paddle \`PATCH /subscriptions/{id}/preview\`). ${PLAN_ERRORS}`,
            },
          },
        )
        .post(
          "/api/subscriptions/:id/change-plan",
          async ({ params, principal, body }) => {
            const { subscription, change } = await deps.changePlan(principal.userId, params.id, body.variant);
            return {
              subscription: toSubscriptionBody(subscription),
              change: { billing_interval: change.variant, effective: change.effective, at: change.at.toISOString() },
            };
          },
          {
            params: IdParams,
            body: t.Object({ variant: Interval }, { additionalProperties: false }),
            response: { 200: PlanChangedBody },
            detail: {
              summary: "Move my subscription to another plan (monthly or yearly)",
              description: `A longer interval applies now: the gateway bills the difference at once, recorded as a \`proration\` payment of the order. A shorter one takes effect at the end of the paid period. A plan the product does not sell is \`422\` with a field error on \`/variant\`. ${PLAN_ERRORS}`,
            },
          },
        )
        .post(
          "/api/subscriptions/:id/billing-portal",
          async ({ params, principal, set }) => {
            set.headers["cache-control"] = "no-store";
            return deps.billingPortal.open(principal.userId, params.id);
          },
          {
            params: IdParams,
            response: { 200: BillingPortalLink },
            detail: {
              summary: "Open the gateway's customer portal to enter a new card for my subscription",
              description: `A new session each time (Stripe \`POST /v1/billing_portal/sessions\`, Paddle \`POST /customers/{id}/portal-sessions\`), leading back to \`/account\`. A card entered there pays a past-due renewal at once; the gateway's events book it. ${PORTAL_ERRORS}`,
            },
          },
        ),
    )
    .get(
      "/api/subscriptions/:id/billing-portal",
      async ({ params, query, request, set }) => {
        const link = { expiresAt: Number(query.expires), access: query.access };
        return redirectOrJson(request, set, (await deps.billingPortal.openByLink(params.id, link)).url);
      },
      {
        params: IdParams,
        query: t.Object({
          expires: t.String({ pattern: "^[0-9]{1,12}$", description: "When the link stops working, in Unix seconds" }),
          access: t.String({ maxLength: 128, description: "The link's signature" }),
        }),
        response: { 200: BillingPortalLink, 302: BillingPortalLink },
        detail: {
          summary:
            "The emailed link to update the card of a subscription: a 302 to the gateway's customer portal, without signing in",
          description: `What a failed renewal's email links to. A wrong signature is \`404\` \`SUBSCRIPTION_NOT_FOUND\`; a link past its expiry \`410\` \`BILLING_LINK_EXPIRED\`. ${PORTAL_ERRORS}`,
        },
      },
    );
}
