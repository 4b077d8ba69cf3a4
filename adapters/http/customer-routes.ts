import { Elysia, t } from "elysia";
import type { makeCustomerViews } from "../../application/customers/customer-views.ts";
import type { makeLicenseService } from "../../application/licensing/license-service.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { Cursor, ListLimit } from "./catalog-schemas.ts";
import { toFulfillmentBody } from "./fulfillment-serializers.ts";
import { toOrderBody, toOrderDetailsBody } from "./order-serializers.ts";

export interface CustomerDeps {
  readonly auth: AuthOptions;
  readonly customerViews: ReturnType<typeof makeCustomerViews>;
  readonly licensing: ReturnType<typeof makeLicenseService>;
}

/** Flat rows with Date values, as JSON with ISO times. */
const iso = <T extends object>(row: T) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));

const IdParams = t.Object({ id: t.String({ maxLength: 64 }) });
const Key = t.String({ minLength: 1, maxLength: 4096 });

export function createCustomerRoutes(deps: CustomerDeps) {
  const views = deps.customerViews;
  return new Elysia({ name: "customer-routes" })
    .use(createAuth(deps.auth))
    .guard({ auth: "customer", detail: { tags: ["customer"], security: [{ bearer: [] }] } }, (app) =>
      app
        .get("/api/dashboard", ({ principal }) => views.dashboard(principal.userId), {
          detail: { summary: "Every item I bought: delivery type, status and the next action" },
        })
        .get(
          "/api/orders",
          async ({ principal, query }) => {
            const page = await views.orders(principal.userId, {
              limit: query.limit ?? 20,
              ...(query.cursor ? { cursor: query.cursor } : {}),
            });
            return { items: page.items.map(toOrderBody), next_cursor: page.next_cursor };
          },
          { query: t.Object({ cursor: Cursor, limit: ListLimit }), detail: { summary: "My orders, newest first" } },
        )
        .get(
          "/api/orders/:id",
          async ({ principal, params }) => {
            const details = await views.order(principal.userId, params.id);
            const byItem = new Map(details.fulfillments.map((f) => [f.order_item_id, toFulfillmentBody(f)]));
            const body = toOrderDetailsBody(details);
            return {
              ...body,
              items: body.items.map((item) => ({ ...item, fulfillment: byItem.get(item.id) ?? null })),
            };
          },
          { params: IdParams, detail: { summary: "One of my orders, each item with its fulfillment" } },
        )
        .get(
          "/api/licenses",
          async ({ principal }) => ({ items: (await views.licenses(principal.userId)).map(iso), next_cursor: null }),
          {
            detail: { summary: "My licenses with keys, activations and download links" },
          },
        )
        .get(
          "/api/subscriptions",
          async ({ principal }) => ({
            items: (await views.subscriptions(principal.userId)).map(iso),
            next_cursor: null,
          }),
          { detail: { summary: "My subscriptions" } },
        )
        .get(
          "/api/installations",
          async ({ principal }) => ({
            items: (await views.installations(principal.userId)).map(iso),
            next_cursor: null,
          }),
          { detail: { summary: "My dedicated installations" } },
        )
        .get(
          "/api/downloads/:token",
          async ({ principal, params, redirect }) =>
            redirect(await views.download(principal.userId, params.token), 302),
          {
            params: t.Object({ token: t.String({ maxLength: 1024 }) }),
            detail: { summary: "A signed, expiring link to the release artifact of my entitlement (redirects)" },
          },
        ),
    )
    .get(
      "/api/licenses/public-key",
      () => ({ algorithm: "Ed25519", format: "spki-pem", public_key: deps.licensing.publicKeyPem() }),
      {
        detail: { tags: ["licensing"], summary: "The public key that verifies license keys offline" },
      },
    )
    .post("/api/licenses/activate", ({ body }) => deps.licensing.activate(body.key, body.fingerprint), {
      body: t.Object(
        { key: Key, fingerprint: t.String({ minLength: 1, maxLength: 200 }) },
        { additionalProperties: false },
      ),
      detail: { tags: ["licensing"], summary: "Activate a license on a machine (idempotent per fingerprint)" },
    })
    .post("/api/licenses/validate", ({ body }) => deps.licensing.validate(body.key), {
      body: t.Object({ key: Key }, { additionalProperties: false }),
      detail: { tags: ["licensing"], summary: "Validity, product, type, expiry and activation count of a key" },
    });
}
