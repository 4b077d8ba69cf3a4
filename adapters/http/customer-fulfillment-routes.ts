import { Elysia, t } from "elysia";
import type { NotificationFilter, StoredNotification } from "../../application/notifications/ports.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { Int, QueryInt } from "../../kit/schema-types.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { FulfillmentSchema, NotificationSchema } from "./fulfillment-schemas.ts";
import { toFulfillmentBody } from "./fulfillment-serializers.ts";
import { page } from "./openapi-models.ts";
import { Cursor, IdParams, oneOf, pageRequest } from "./shared-schemas.ts";

export interface CustomerFulfillmentDeps {
  readonly auth: AuthOptions;
  getCustomerFulfillment(id: string, customerId: string): Promise<FulfillmentRecord>;
  retryCustomerFulfillment(id: string, customerId: string): Promise<FulfillmentRecord>;
  supplyCustomerInput(id: string, customerId: string, input: { domain: string }): Promise<FulfillmentRecord>;
  listCustomerNotifications(
    customerId: string,
    filter: NotificationFilter,
    page: PageRequest,
  ): Promise<Page<StoredNotification>>;
  readNotification(customerId: string, id: string): Promise<StoredNotification>;
  readAllNotifications(customerId: string): Promise<number>;
}

const toNotificationBody = (notification: StoredNotification) => ({
  ...notification,
  created_at: notification.created_at.toISOString(),
  read_at: notification.read_at?.toISOString() ?? null,
});

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
          async ({ principal, query }) => {
            const filter = query.unread === undefined ? {} : { unread: query.unread === "true" };
            const paging = pageRequest({ limit: query.limit ?? 50, cursor: query.cursor });
            const found = await deps.listCustomerNotifications(principal.userId, filter, paging);
            return { items: found.items.map(toNotificationBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              limit: t.Optional(QueryInt({ minimum: 1, maximum: 100, default: 50 })),
              cursor: Cursor,
              unread: t.Optional(oneOf(["true", "false"])),
            }),
            response: { 200: page(NotificationSchema) },
            detail: { summary: "My notifications, newest first" },
          },
        )
        .post(
          "/api/notifications/read-all",
          async ({ principal }) => ({ updated: await deps.readAllNotifications(principal.userId) }),
          {
            response: { 200: t.Object({ updated: Int({ minimum: 0, description: "How many were unread" }) }) },
            detail: { summary: "Mark all my notifications read" },
          },
        )
        .post(
          "/api/notifications/:id/read",
          async ({ params, principal }) => toNotificationBody(await deps.readNotification(principal.userId, params.id)),
          {
            params: IdParams,
            response: { 200: NotificationSchema },
            detail: { summary: "Mark one of my notifications read" },
          },
        ),
    );
}
