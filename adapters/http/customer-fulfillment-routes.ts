import { Elysia, t } from "elysia";
import type { StoredNotification } from "../../application/notifications/ports.ts";
import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { QueryInt } from "../../kit/schema-types.ts";
import { page } from "./api-model.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { FulfillmentSchema, NotificationSchema } from "./fulfillment-schemas.ts";
import { toFulfillmentBody } from "./fulfillment-serializers.ts";
import { IdParams } from "./shared-schemas.ts";

export interface CustomerFulfillmentDeps {
  readonly auth: AuthOptions;
  getCustomerFulfillment(id: string, customerId: string): Promise<FulfillmentRecord>;
  retryCustomerFulfillment(id: string, customerId: string): Promise<FulfillmentRecord>;
  supplyCustomerInput(id: string, customerId: string, input: { domain: string }): Promise<FulfillmentRecord>;
  listCustomerNotifications(customerId: string, limit: number): Promise<StoredNotification[]>;
}

/** A customer's own deliveries; another customer's are 404, never 403 and never their data. */
export function createCustomerFulfillmentRoutes(deps: CustomerFulfillmentDeps) {
  return new Elysia({ name: "customer-fulfillment-routes", tags: ["customer"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "customer", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/fulfillments/:id",
          async ({ params, principal }) =>
            toFulfillmentBody(await deps.getCustomerFulfillment(params.id, principal.userId)),
          {
            params: IdParams,
            response: { 200: FulfillmentSchema },
            detail: { summary: "Delivery status of one of my items" },
          },
        )
        .post(
          "/api/fulfillments/:id/retry",
          async ({ params, principal }) =>
            toFulfillmentBody(await deps.retryCustomerFulfillment(params.id, principal.userId)),
          {
            params: IdParams,
            response: { 200: FulfillmentSchema },
            detail: { summary: "Retry a failed delivery of mine" },
          },
        )
        .post(
          "/api/fulfillments/:id/customer-input",
          async ({ params, principal, body }) =>
            toFulfillmentBody(await deps.supplyCustomerInput(params.id, principal.userId, body)),
          {
            params: IdParams,
            body: t.Object({ domain: t.String({ minLength: 1, maxLength: 253 }) }, { additionalProperties: false }),
            response: { 200: FulfillmentSchema },
            detail: { summary: "Give what a delivery awaits (the domain of a dedicated installation)" },
          },
        )
        .get(
          "/api/notifications",
          async ({ principal, query }) => ({
            items: (await deps.listCustomerNotifications(principal.userId, query.limit ?? 50)).map((n) => ({
              ...n,
              created_at: n.created_at.toISOString(),
              read_at: n.read_at?.toISOString() ?? null,
            })),
            next_cursor: null,
          }),
          {
            query: t.Object({ limit: t.Optional(QueryInt({ minimum: 1, maximum: 100 })) }),
            response: { 200: page(NotificationSchema) },
            detail: { summary: "My notifications, newest first" },
          },
        ),
    );
}
