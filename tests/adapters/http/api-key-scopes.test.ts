import { expect, test } from "bun:test";
import { apiKeyScopeFor } from "../../../adapters/http/api-key-scopes.ts";

test.each([
  ["GET", "/api/admin/products", "catalog:read"],
  ["POST", "/api/admin/products", "catalog:write"],
  ["PUT", "/api/admin/products/p-1/", "catalog:write"],
  ["GET", "/api/admin/products/p-1/provider/tenants", "fulfillments:read"],
  ["POST", "/api/admin/products/p-1/provider/tenants", undefined],
  ["GET", "/api/admin/fulfillment-drivers", "catalog:read"],
  ["POST", "/api/admin/orders/o-1/refund", "orders:write"],
  ["GET", "/api/admin/orders", "orders:read"],
  ["GET", "/api/admin/exports/orders.csv", "orders:read"],
  ["GET", "/api/admin/exports/payments.csv", "orders:read"],
  ["GET", "/api/admin/exports/licenses.csv", "fulfillments:read"],
  ["POST", "/api/admin/exports/orders.csv", undefined],
  ["GET", "/api/admin/exports/other.csv", undefined],
  ["GET", "/api/admin/reports/revenue", "orders:read"],
  ["GET", "/api/admin/reports/subscriptions", "orders:read"],
  ["POST", "/api/admin/reports/revenue", undefined],
  ["POST", "/api/admin/fulfillments/f-1/retry", "fulfillments:write"],
  ["POST", "/api/admin/manual-tasks/t-1/complete", "fulfillments:write"],
  ["GET", "/api/admin/users", "customers:read"],
  ["PATCH", "/api/admin/users/u-1", undefined],
  ["DELETE", "/api/admin/webhook-endpoints/w-1", "webhooks:write"],
  ["GET", "/api/admin/api-keys", undefined],
  ["GET", "/api/admin/secrets", undefined],
  ["PUT", "/api/admin/gateway_b/settings", undefined],
  ["POST", "/api/admin/jobs/1/redrive", undefined],
  ["GET", "/api/admin/audit-log", undefined],
  ["GET", "/api/admin/ordersx", undefined],
  ["GET", "/api/me", undefined],
] as const)("%s %s needs %s", (method, path, scope) => {
  expect(apiKeyScopeFor(method, path)).toBe(scope);
});
