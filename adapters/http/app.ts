import { Kind } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { withCheckedBody } from "../../kit/body-parser.ts";
import type { Logger } from "../../kit/logger.ts";
import { createAccessLog, createRequestContext } from "../../kit/request-context.ts";
import { createUrlRedactor } from "../../kit/url-redaction.ts";
import type { IdempotentRequestStore } from "../postgres/idempotent-request-store.ts";
import { type AccountRoutesDeps, createAccountRoutes } from "./account-routes.ts";
import { type AdminApiKeyDeps, createAdminApiKeyRoutes } from "./admin-api-key-routes.ts";
import { type AdminAuditDeps, createAdminAuditRoutes } from "./admin-audit-routes.ts";
import { type AdminCatalogDeps, createAdminCatalogRoutes } from "./admin-catalog-routes.ts";
import { type AdminDiscountDeps, createAdminDiscountRoutes } from "./admin-discount-routes.ts";
import { type AdminExportDeps, createAdminExportRoutes } from "./admin-export-routes.ts";
import { type AdminFulfillmentDeps, createAdminFulfillmentRoutes } from "./admin-fulfillment-routes.ts";
import { type AdminGatewayDeps, createAdminGatewayRoutes } from "./admin-gateway-routes.ts";
import { type AdminLicenseDeps, createAdminLicenseRoutes } from "./admin-license-routes.ts";
import { type AdminOrderDeps, createAdminOrderRoutes } from "./admin-order-routes.ts";
import { type AdminProviderDeps, createAdminProviderRoutes } from "./admin-provider-routes.ts";
import { type AdminReportDeps, createAdminReportRoutes } from "./admin-report-routes.ts";
import { type AdminSecretDeps, createAdminSecretRoutes } from "./admin-secret-routes.ts";
import { type AdminUserDeps, createAdminUserRoutes } from "./admin-user-routes.ts";
import { type AdminWebhookEndpointDeps, createAdminWebhookEndpointRoutes } from "./admin-webhook-endpoint-routes.ts";
import { type AdminWebhookReplayDeps, createAdminWebhookReplayRoutes } from "./admin-webhook-replay-routes.ts";
import { apiDocs } from "./api-reference-route.ts";
import { createCallerIdentifier } from "./auth-plugin.ts";
import { type AuthRoutesDeps, createAuthRoutes } from "./auth-routes.ts";
import { createCatalogFastPath } from "./catalog-fast-path.ts";
import { type CheckoutDeps, createCheckoutRoutes } from "./checkout-routes.ts";
import { type CustomerFulfillmentDeps, createCustomerFulfillmentRoutes } from "./customer-fulfillment-routes.ts";
import { type CustomerDeps, createCustomerRoutes } from "./customer-routes.ts";
import { type CustomerSubscriptionDeps, createCustomerSubscriptionRoutes } from "./customer-subscription-routes.ts";
import { createDownloadRoutes, type DownloadDeps } from "./download-routes.ts";
import { createErrorHandler } from "./error-handler.ts";
import { createHealthRoutes, type Readiness } from "./health-routes.ts";
import { withIdempotency } from "./idempotency.ts";
import { createRouteTemplates } from "./idempotent-routes.ts";
import { createLicenseMachineRoutes } from "./license-machine-routes.ts";
import { createLicenseRoutes, type LicenseDeps } from "./license-routes.ts";
import { createMetricsRoutes, type MetricsDeps } from "./metrics-routes.ts";
import { withNoStore } from "./no-store.ts";
import { createPageRoutes, type PageDeps } from "./page-routes.ts";
import { createProductPageRoutes, type ProductPageDeps } from "./product-page-routes.ts";
import {
  createPublicCatalogAnswers,
  createPublicCatalogRoutes,
  type PublicCatalogDeps,
} from "./public-catalog-routes.ts";
import { createRateLimiter, type RateLimit, rateLimitGroup } from "./rate-limit.ts";
import { createWebhookRoutes, RAW_BODY_PREFIX, type WebhookDeps } from "./webhook-routes.ts";

export interface AppDeps
  extends AuthRoutesDeps,
    AdminCatalogDeps,
    PublicCatalogDeps,
    AdminProviderDeps,
    AdminSecretDeps,
    CheckoutDeps,
    AdminGatewayDeps,
    AdminOrderDeps,
    AdminExportDeps,
    WebhookDeps,
    AdminFulfillmentDeps,
    CustomerFulfillmentDeps,
    CustomerDeps,
    LicenseDeps,
    AdminLicenseDeps,
    AdminDiscountDeps,
    CustomerSubscriptionDeps,
    DownloadDeps,
    PageDeps,
    ProductPageDeps,
    AdminUserDeps,
    AdminAuditDeps,
    AdminReportDeps,
    AdminApiKeyDeps,
    AccountRoutesDeps,
    AdminWebhookEndpointDeps,
    AdminWebhookReplayDeps,
    MetricsDeps {
  readonly logger: Logger;
  /** Request lines; defaults to `logger`. */
  readonly accessLogger?: Logger;
  readonly bodyLimitBytes: number;
  readonly rateLimits?: { readonly limits: Readonly<Record<string, RateLimit>>; readonly trustProxy: boolean };
  checkReadiness(): Promise<Readiness>;
  /** This process's name in `/health` and `/ready`. */
  readonly instanceId: string;
  /** Where `Idempotency-Key`s and their answers are kept, and the secret their request hashes are keyed with. */
  readonly idempotency: { readonly store: IdempotentRequestStore; readonly hashSecret: string };
}

/**
 * The whole marketplace HTTP surface, built from plain dependencies; no I/O happens here. Its
 * `fetch` (and so `handle`) answers cached public catalog reads before Elysia's pipeline (see
 * catalog-fast-path.ts) and hands every other request to Elysia.
 */
export function createApp(deps: AppDeps) {
  const routes: { current?: readonly { path: string }[] } = {};
  const catalog = createPublicCatalogAnswers(deps);
  const redactTarget = createUrlRedactor(() => routes.current?.map((route) => route.path) ?? []);
  const limits = deps.rateLimits?.limits ?? {};
  const app = new Elysia({ name: "marketplace" })
    .use(createErrorHandler(deps))
    .use(createRequestContext({ ...deps, redactTarget, observe: deps.metrics.observeRequest }))
    .use(
      createRateLimiter({
        limits,
        groupOf: rateLimitGroup,
        trustProxy: deps.rateLimits?.trustProxy ?? false,
      }),
    )
    .onRequest(async (context) => {
      const { request } = context;
      if (request.body === null) return;
      // A webhook's signature covers its exact bytes: its routes read them themselves, once.
      if (new URL(request.url).pathname.startsWith(RAW_BODY_PREFIX)) return;
      context.request = await withCheckedBody(request, deps.bodyLimitBytes);
    })
    .use(
      apiDocs({
        path: "/openapi",
        specPath: "/openapi/json",
        // Served from our own node_modules: the docs page loads nothing from another host.
        reference: deps.pages.apiReference,
        documentation: {
          info: {
            title: "Marketplace API",
            version: "0.1.0",
            description: "Catalog, checkout, payments and fulfillment of digital products.",
          },
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
        },
      }),
    )
    .use(createHealthRoutes(deps))
    .use(createMetricsRoutes(deps))
    .use(createPageRoutes(deps))
    .use(createProductPageRoutes(deps))
    .use(createDownloadRoutes(deps))
    .use(createAuthRoutes(deps))
    .use(createAccountRoutes(deps))
    .use(createPublicCatalogRoutes(deps, catalog))
    .use(createAdminCatalogRoutes(deps))
    .use(createAdminProviderRoutes(deps))
    .use(createAdminSecretRoutes(deps))
    .use(createCheckoutRoutes(deps, { perCustomer: limits.checkout }))
    .use(createAdminGatewayRoutes(deps))
    .use(createAdminOrderRoutes(deps))
    .use(createAdminExportRoutes(deps))
    .use(createWebhookRoutes(deps))
    .use(createAdminFulfillmentRoutes(deps))
    .use(createCustomerFulfillmentRoutes(deps))
    .use(createCustomerRoutes(deps))
    .use(createLicenseMachineRoutes(deps))
    .use(createLicenseRoutes(deps))
    .use(createAdminLicenseRoutes(deps))
    .use(createAdminDiscountRoutes(deps))
    .use(createCustomerSubscriptionRoutes(deps))
    .use(createAdminUserRoutes(deps))
    .use(createAdminAuditRoutes(deps))
    .use(createAdminReportRoutes(deps))
    .use(createAdminApiKeyRoutes(deps))
    .use(createAdminWebhookEndpointRoutes(deps))
    .use(createAdminWebhookReplayRoutes(deps));
  routes.current = app.routes;
  closeTopLevelObjects(app.routes);
  // Elysia compiles its handler on the first read of `fetch`; the fast path wraps that handler and
  // takes its place, so Bun.serve and `handle` (tests) both go through it.
  const elysiaFetch = app.fetch;
  const logAccess = createAccessLog(deps.accessLogger ?? deps.logger);
  const idempotent = withIdempotency(elysiaFetch, {
    ...deps.idempotency,
    identify: createCallerIdentifier(deps.auth),
    routeOf: createRouteTemplates(() => app.routes),
    bodyLimitBytes: deps.bodyLimitBytes,
    logAccess,
    observe: deps.metrics.observeRequest,
    redactTarget,
  });
  const fetch = createCatalogFastPath({
    answers: catalog,
    logAccess,
    observe: deps.metrics.observeRequest,
    rateLimitGroupOf: (path) => {
      const group = rateLimitGroup(path);
      return group !== undefined && deps.rateLimits?.limits[group] !== undefined ? group : undefined;
    },
    next: withNoStore(idempotent),
  });
  Object.defineProperty(app, "fetch", { value: fetch, configurable: true, writable: true });
  return app;
}

type RouteSchemas = { readonly hooks?: { readonly body?: unknown; readonly response?: unknown } };

/**
 * Elysia closes a route's top-level body and response objects (`additionalProperties: false`) when
 * it compiles the route, on its first request. Closing them when the app is built, as Elysia would,
 * keeps the OpenAPI document the same whichever routes have answered before it is first read (in
 * production, /ready), without compiling every route up front (16 MB of idle memory,
 * docs/performance.md).
 */
function closeTopLevelObjects(routes: readonly RouteSchemas[]) {
  const close = (schema: unknown) => {
    if (typeof schema !== "object" || schema === null) return;
    const object = schema as { type?: unknown; additionalProperties?: unknown };
    if (object.type === "object" && !("additionalProperties" in object)) object.additionalProperties = false;
  };
  for (const { hooks } of routes) {
    close(hooks?.body);
    const response = hooks?.response;
    if (response && typeof response === "object" && !("type" in response) && !(Kind in response)) {
      for (const schema of Object.values(response)) close(schema);
    } else close(response);
  }
}
