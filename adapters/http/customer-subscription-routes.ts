import { Elysia, t } from "elysia";
import type { CustomerSubscription } from "../../application/customers/ports.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named } from "./openapi-models.ts";
import { IdParams, Time } from "./shared-schemas.ts";

export interface CustomerSubscriptionDeps {
  readonly auth: AuthOptions;
  cancelCustomerSubscription(customerId: string, id: string): Promise<CustomerSubscription>;
  resumeCustomerSubscription(customerId: string, id: string): Promise<CustomerSubscription>;
}

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
        ),
    );
}
