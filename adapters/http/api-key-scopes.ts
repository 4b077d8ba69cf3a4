import type { ApiKeyScope } from "../../domain/identity/api-key.ts";

/**
 * Which scope an admin route needs from an API key: the resource by path, `read` for GET and HEAD,
 * `write` for the rest. A route under none of these prefixes (keys, accounts' access, gateways,
 * secrets, jobs, the audit log) answers no key: it takes a signed-in admin.
 */
const RESOURCES: readonly (readonly [prefix: string, resource: string, writable: boolean])[] = [
  ["/api/admin/products", "catalog", true],
  ["/api/admin/fulfillment-drivers", "catalog", false],
  ["/api/admin/discounts", "catalog", true],
  ["/api/admin/fulfillment/test-connection", "catalog", true],
  ["/api/admin/orders", "orders", true],
  // Each export takes the read scope of the list it mirrors.
  ["/api/admin/exports/orders.csv", "orders", false],
  ["/api/admin/exports/payments.csv", "orders", false],
  ["/api/admin/exports/licenses.csv", "fulfillments", false],
  // Reports are read from the orders' ledger: a key that may read orders may read their sums.
  ["/api/admin/reports", "orders", false],
  ["/api/admin/fulfillments", "fulfillments", true],
  ["/api/admin/manual-tasks", "fulfillments", true],
  ["/api/admin/licenses", "fulfillments", true],
  ["/api/admin/users", "customers", false],
  ["/api/admin/webhook-endpoints", "webhooks", true],
];

/** The provider's view of a product's tenants is about deliveries and customers, not the catalog. */
const PROVIDER_VIEW = /^\/api\/admin\/products\/[^/]+\/provider(\/|$)/;

export function apiKeyScopeFor(method: string, rawPath: string): ApiKeyScope | undefined {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath;
  const reading = method === "GET" || method === "HEAD";
  if (PROVIDER_VIEW.test(path)) return reading ? "fulfillments:read" : undefined;
  for (const [prefix, resource, writable] of RESOURCES) {
    if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
    if (reading) return `${resource}:read` as ApiKeyScope;
    return writable ? (`${resource}:write` as ApiKeyScope) : undefined;
  }
  return undefined;
}
