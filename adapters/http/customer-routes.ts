import { Elysia, t } from "elysia";
import type { makeCustomerViews } from "../../application/customers/customer-views.ts";
import type { DocumentReader } from "../../application/customers/payment-documents.ts";
import { OrderNotFound } from "../../domain/orders/errors.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { DashboardItemSchema, InstallationSchema, LicenseSchema } from "./customer-schemas.ts";
import { toInstallationBody, toLicenseBody } from "./customer-serializers.ts";
import { SubscriptionBody, toSubscriptionBody } from "./customer-subscription-routes.ts";
import { toFulfillmentBody } from "./fulfillment-serializers.ts";
import { named, page } from "./openapi-models.ts";
import { GuestOrderDetailsSchema, OrderDetailsSchema, OrderSchema } from "./order-schemas.ts";
import { toOrderBody, toOrderDetailsBody } from "./order-serializers.ts";
import { redirectOrJson } from "./redirect-or-json.ts";
import { asBody } from "./serializers.ts";
import { Cursor, IdParams, ListLimit, pageRequest } from "./shared-schemas.ts";

export interface CustomerDeps {
  readonly auth: AuthOptions;
  readonly customerViews: ReturnType<typeof makeCustomerViews>;
  paymentDocument(reader: DocumentReader, orderId: string, paymentId: string): Promise<string>;
}

const InvoiceLinkSchema = named(
  "InvoiceLink",
  t.Object({ url: t.String({ description: "The gateway's invoice or receipt; Paddle's expires after an hour" }) }),
);

type ViewedOrder = Awaited<ReturnType<CustomerDeps["customerViews"]["order"]>>;

/** The order's body, each item with its fulfillment. */
function withFulfillments(details: ViewedOrder) {
  const byItem = new Map(details.fulfillments.map((f) => [f.order_item_id, toFulfillmentBody(f)]));
  const body = toOrderDetailsBody(details);
  return { ...body, items: body.items.map((item) => ({ ...item, fulfillment: byItem.get(item.id) ?? null })) };
}

const GuestOrderStatusSchema = named(
  "GuestOrderStatus",
  t.Object({ order: GuestOrderDetailsSchema, items: t.Array(DashboardItemSchema) }),
);

export function createCustomerRoutes(deps: CustomerDeps) {
  const views = deps.customerViews;
  return new Elysia({ name: "customer-routes" })
    .use(createAuth(deps.auth))
    .guard({ auth: "customer", detail: { tags: ["customer"], security: [{ bearer: [] }] } }, (app) =>
      app
        .get("/api/dashboard", async ({ principal }) => asBody(await views.dashboard(principal.userId)), {
          response: { 200: page(DashboardItemSchema) },
          detail: { summary: "Every item I bought: delivery type, status and the next action" },
        })
        .get(
          "/api/orders",
          async ({ principal, query }) => {
            const page = await views.orders(principal.userId, pageRequest(query));
            return { items: page.items.map(toOrderBody), next_cursor: page.next_cursor };
          },
          {
            query: t.Object({ cursor: Cursor, limit: ListLimit }),
            response: { 200: page(OrderSchema) },
            detail: { summary: "My orders, newest first" },
          },
        )
        .get(
          "/api/orders/:id",
          async ({ principal, params }) => asBody(withFulfillments(await views.order(principal.userId, params.id))),
          {
            params: IdParams,
            response: { 200: OrderDetailsSchema },
            detail: { summary: "One of my orders, each item with its fulfillment" },
          },
        )
        .get(
          "/api/licenses",
          async ({ principal }) => ({
            items: (await views.licenses(principal.userId)).map(toLicenseBody),
            next_cursor: null,
          }),
          {
            response: { 200: page(LicenseSchema) },
            detail: { summary: "My licenses with keys, activations and download links" },
          },
        )
        .get(
          "/api/subscriptions",
          async ({ principal }) => ({
            items: (await views.subscriptions(principal.userId)).map(toSubscriptionBody),
            next_cursor: null,
          }),
          { response: { 200: page(SubscriptionBody) }, detail: { summary: "My subscriptions" } },
        )
        .get(
          "/api/installations",
          async ({ principal }) => ({
            items: (await views.installations(principal.userId)).map(toInstallationBody),
            next_cursor: null,
          }),
          { response: { 200: page(InstallationSchema) }, detail: { summary: "My dedicated installations" } },
        ),
    )
    .get(
      "/api/orders/:id/status",
      async ({ params, headers }) => {
        const access = headers["order-access"];
        if (!access) throw new OrderNotFound();
        const { details, items } = await views.orderByAccess(params.id, access);
        const { customer_id: _, ...order } = withFulfillments(details);
        return asBody({ order, items });
      },
      {
        params: IdParams,
        headers: t.Object({
          "order-access": t.Optional(
            t.String({
              maxLength: 128,
              description: "The `access` of the order's status link (a guest's emails and checkout answer carry it)",
            }),
          ),
        }),
        response: { 200: GuestOrderStatusSchema },
        detail: {
          tags: ["customer"],
          summary:
            "One order by its signed access, without signing in: the order and each item's delivery and next action (what a guest's status link opens)",
        },
      },
    )
    .get(
      "/api/orders/:id/payments/:payment_id/invoice",
      async ({ principal, params, query, request, set }) => {
        // An emailed link opens its invoice whoever is signed in; without one, the session's own orders.
        const reader =
          query.access !== undefined
            ? { link: { expiresAt: Number(query.expires ?? Number.NaN), access: query.access } }
            : principal
              ? { customerId: principal.userId }
              : undefined;
        // Neither signed in nor holding a link: not found, like an order that is not theirs.
        if (!reader) throw new OrderNotFound();
        return redirectOrJson(request, set, await deps.paymentDocument(reader, params.id, params.payment_id));
      },
      {
        optionalAuth: "customer",
        params: t.Object({ id: t.String({ maxLength: 64 }), payment_id: t.String({ maxLength: 64 }) }),
        query: t.Object({
          expires: t.Optional(
            t.String({ pattern: "^[0-9]{1,12}$", description: "When an emailed link stops working, in Unix seconds" }),
          ),
          access: t.Optional(
            t.String({
              maxLength: 128,
              description: "An emailed link's signature (a renewal email's invoice link), in place of signing in",
            }),
          ),
        }),
        response: { 200: InvoiceLinkSchema, 302: InvoiceLinkSchema },
        detail: {
          tags: ["customer"],
          security: [{ bearer: [] }, {}],
          summary:
            "The gateway's invoice or receipt for one payment of my order: a 302 to it, or its address as JSON when asked for application/json",
          description:
            "Signed in, or by a renewal email's link (`expires` and `access`, for this payment only; past its expiry `410` `LINK_EXPIRED`). Asked of the gateway each time, because Paddle's links expire after an hour: Stripe's hosted invoice page for a subscription's payment, else the charge's receipt; Paddle's invoice PDF. A payment the gateway keeps no document for (one of no value) is `404` `INVOICE_NOT_AVAILABLE`; an unknown payment `404` `PAYMENT_NOT_FOUND`; another customer's order, a wrong link, or neither a session nor a link, `404` `ORDER_NOT_FOUND`.",
        },
      },
    );
}
