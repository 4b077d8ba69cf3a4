import { Elysia, t } from "elysia";
import type { BillingPortal } from "../../application/customers/billing-portal.ts";
import type { CustomerSubscription } from "../../application/customers/ports.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named } from "./openapi-models.ts";
import { redirectOrJson } from "./redirect-or-json.ts";
import { IdParams, Time } from "./shared-schemas.ts";

export interface CustomerSubscriptionDeps {
  readonly auth: AuthOptions;
  cancelCustomerSubscription(customerId: string, id: string): Promise<CustomerSubscription>;
  resumeCustomerSubscription(customerId: string, id: string): Promise<CustomerSubscription>;
  readonly billingPortal: Pick<BillingPortal, "open" | "openByLink">;
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
  }),
);

export const toSubscriptionBody = (subscription: CustomerSubscription) => ({
  ...subscription,
  trial_ends_at: subscription.trial_ends_at?.toISOString() ?? null,
  current_period_end: subscription.current_period_end?.toISOString() ?? null,
  cancelled_at: subscription.cancelled_at?.toISOString() ?? null,
});

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
