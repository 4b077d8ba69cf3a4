import { Elysia, t } from "elysia";
import type { Page, PageRequest } from "../../application/catalog/ports.ts";
import type { OrderDetails, OrderFilter } from "../../application/checkout/ports.ts";
import type { Order } from "../../domain/orders/order.ts";
import { ORDER_STATUSES } from "../../domain/orders/order.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { Cursor, GatewaySchema, ListLimit, oneOf } from "./catalog-schemas.ts";
import { toOrderBody, toOrderDetailsBody } from "./order-serializers.ts";
import { Int } from "./schema-types.ts";

export interface AdminOrderDeps {
  readonly auth: AuthOptions;
  listAdminOrders(filter: OrderFilter, page: PageRequest): Promise<Page<Order>>;
  getAdminOrder(orderId: string): Promise<OrderDetails>;
  refundOrder(orderId: string, amount: number | undefined): Promise<OrderDetails>;
}

const IdParams = t.Object({ id: t.String({ maxLength: 64 }) });

export function createAdminOrderRoutes(deps: AdminOrderDeps) {
  return new Elysia({ name: "admin-order-routes", tags: ["admin: orders"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/orders",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const page = await deps.listAdminOrders(filter, { limit: limit ?? 20, ...(cursor ? { cursor } : {}) });
            return { items: page.items.map(toOrderBody), next_cursor: page.next_cursor };
          },
          {
            query: t.Object({
              status: t.Optional(oneOf(ORDER_STATUSES)),
              payment_gateway: t.Optional(GatewaySchema),
              cursor: Cursor,
              limit: ListLimit,
            }),
            detail: { summary: "Orders, newest first, filtered by status and gateway" },
          },
        )
        .get("/api/admin/orders/:id", async ({ params }) => toOrderDetailsBody(await deps.getAdminOrder(params.id)), {
          params: IdParams,
          detail: { summary: "One order with items, payments and refunds" },
        })
        .post(
          "/api/admin/orders/:id/refund",
          async ({ params, body }) => toOrderDetailsBody(await deps.refundOrder(params.id, body?.amount)),
          {
            params: IdParams,
            body: t.Optional(t.Object({ amount: t.Optional(Int({ minimum: 1 })) }, { additionalProperties: false })),
            detail: { summary: "Refund all (no amount) or part of the order's payment through its gateway" },
          },
        ),
    );
}
