import { Elysia, t } from "elysia";
import type { OrderDetails, OrderFilter } from "../../application/checkout/ports.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import type { Order } from "../../domain/orders/order.ts";
import { Int } from "../../kit/schema-types.ts";
import { OrderListFilter, orderFilterOf } from "./admin-list-filters.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { page } from "./openapi-models.ts";
import { AdminOrderDetailsSchema, AdminOrderSchema } from "./order-schemas.ts";
import { type AdminOrderDetailsBody, toAdminOrderBody, toAdminOrderDetailsBody } from "./order-serializers.ts";
import { Cursor, IdParams, ListLimit, pageRequest } from "./shared-schemas.ts";

export interface AdminOrderDeps {
  readonly auth: AuthOptions;
  listAdminOrders(filter: OrderFilter, page: PageRequest): Promise<Page<Order>>;
  getAdminOrder(orderId: string): Promise<OrderDetails>;
  /**
   * The admin's Idempotency-Key (the HTTP layer keeps and replays the answer) also names the
   * refund's reservation, which a retry after a failure takes up (refund-reservations.md).
   */
  refundOrder(
    orderId: string,
    request: { payment_id?: string; amount?: number },
    actorId: string,
    idempotencyKey: string | undefined,
  ): Promise<AdminOrderDetailsBody>;
  approveOrder(orderId: string, actorId: string): Promise<OrderDetails>;
}

export function createAdminOrderRoutes(deps: AdminOrderDeps) {
  return new Elysia({ name: "admin-order-routes", tags: ["admin: orders"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/orders",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listAdminOrders(orderFilterOf(filter), pageRequest({ cursor, limit }));
            return { items: found.items.map(toAdminOrderBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({ ...OrderListFilter.properties, cursor: Cursor, limit: ListLimit }),
            response: { 200: page(AdminOrderSchema) },
            detail: { summary: "Orders, newest first, filtered by status, gateway and whether they need attention" },
          },
        )
        .get(
          "/api/admin/orders/:id",
          async ({ params }) => toAdminOrderDetailsBody(await deps.getAdminOrder(params.id)),
          {
            params: IdParams,
            response: { 200: AdminOrderDetailsSchema },
            detail: { summary: "One order with items, its ledger of payments, refunds and disputes, and attention" },
          },
        )
        .post(
          "/api/admin/orders/:id/approve",
          async ({ params, principal }) =>
            toAdminOrderDetailsBody(await deps.approveOrder(params.id, principal.userId)),
          {
            params: IdParams,
            response: { 200: AdminOrderDetailsSchema },
            detail: { summary: "Accept an order that needs attention: a flagged order is delivered, once" },
          },
        )
        .post(
          "/api/admin/orders/:id/refund",
          ({ params, body, principal, headers }) =>
            deps.refundOrder(params.id, body ?? {}, principal.userId, headers["idempotency-key"]),
          {
            params: IdParams,
            headers: t.Object({ "idempotency-key": t.Optional(t.String({ minLength: 1, maxLength: 255 })) }),
            body: t.Optional(
              t.Object(
                {
                  payment_id: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
                  amount: t.Optional(Int({ minimum: 1 })),
                },
                { additionalProperties: false },
              ),
            ),
            response: { 200: AdminOrderDetailsSchema },
            detail: {
              summary:
                "Refund one payment (default: the latest with something left), in full or by amount, through its gateway (honours Idempotency-Key)",
            },
          },
        ),
    );
}
