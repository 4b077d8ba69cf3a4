import { aLicenseProduct, subscriptionMappings } from "../builders/products.ts";
import { createProduct, posProductFor } from "../e2e.ts";
import type { Case, Fixtures } from "./fixtures.ts";

/** An admin's request counted by the audit entries the admin's changes write (audit-log.md). */
export const audited =
  (build: (f: Fixtures, admin: { token: string }) => Promise<{ path: string; body?: unknown }>): Case =>
  async (f) => {
    const admin = await f.admin();
    return { ...(await build(f, admin)), token: admin.token, count: admin.audited };
  };

/** An admin's request counted by the rows `count` sees. */
export const counted =
  (
    build: (
      f: Fixtures,
      admin: { token: string },
    ) => Promise<{ path: string; body?: unknown; count(): Promise<number>; expected?: number }>,
  ): Case =>
  async (f) => {
    const admin = await f.admin();
    return { ...(await build(f, admin)), token: admin.token };
  };

const product = (f: Fixtures) => createProduct(f.e2e, aLicenseProduct());
export const suffix = () => crypto.randomUUID().slice(0, 8);

/** Every mutating admin route, keyed as the API document names it. */
export const ADMIN_CASES: Readonly<Record<string, Case>> = {
  "POST /api/admin/products": audited(async () => ({ path: "/api/admin/products", body: aLicenseProduct() })),
  "PUT /api/admin/products/{id}": audited(async (f) => {
    const { id } = await product(f);
    return { path: `/api/admin/products/${id}`, body: { ...aLicenseProduct(), name: `Renamed ${suffix()}` } };
  }),
  "DELETE /api/admin/products/{id}": audited(async (f) => ({ path: `/api/admin/products/${(await product(f)).id}` })),
  "POST /api/admin/products/pricing-mappings/bulk": audited(async (f) => {
    const { id } = await createProduct(f.e2e, posProductFor(f.e2e));
    return {
      path: "/api/admin/products/pricing-mappings/bulk",
      body: { product_id: id, mappings: subscriptionMappings(4100, 41000) },
    };
  }),
  "POST /api/admin/fulfillment/test-connection": audited(async (f) => {
    const { id } = await createProduct(f.e2e, posProductFor(f.e2e));
    return { path: "/api/admin/fulfillment/test-connection", body: { product_id: id } };
  }),
  "PUT /api/admin/secrets/{ref}": audited(async () => ({
    path: `/api/admin/secrets/idem_${suffix()}`,
    body: { value: `value-${suffix()}` },
  })),
  "PUT /api/admin/gateway_a/settings": audited(async () => ({
    path: "/api/admin/gateway_a/settings",
    body: { timeout_seconds: 20 + Math.floor(Math.random() * 20) },
  })),
  "PUT /api/admin/gateway_b/settings": audited(async () => ({
    path: "/api/admin/gateway_b/settings",
    body: { timeout_seconds: 20 + Math.floor(Math.random() * 20) },
  })),
  "POST /api/admin/gateway_a/test-connection": audited(async () => ({ path: "/api/admin/gateway_a/test-connection" })),
  "POST /api/admin/gateway_b/test-connection": audited(async () => ({ path: "/api/admin/gateway_b/test-connection" })),
  "POST /api/admin/gateway_a/products/create": audited(async (f) => ({
    path: "/api/admin/gateway_a/products/create",
    body: { product_id: (await product(f)).id },
  })),
  "PUT /api/admin/gateway_a/products/{id}/sync": audited(async (f) => {
    const { id } = await product(f);
    const other = await f.admin();
    await f.as("POST", "/api/admin/gateway_a/products/create", other.token, { product_id: id });
    return { path: `/api/admin/gateway_a/products/${id}/sync` };
  }),
  "POST /api/admin/orders/{id}/approve": audited(async (f) => {
    const { orderId } = await f.license();
    await f.sql()`
      update orders set status = 'flagged', needs_attention = true, attention_reason = 'amount differs'
      where id = ${orderId}`;
    return { path: `/api/admin/orders/${orderId}/approve` };
  }),
  "POST /api/admin/orders/{id}/refund": counted(async (f) => {
    const { orderId } = await f.license();
    return {
      path: `/api/admin/orders/${orderId}/refund`,
      body: { amount: 100 },
      count: () =>
        f.one(f.sql()<{ n: number }[]>`
          select count(*)::int n from refunds r join payments p on p.id = r.payment_id where p.order_id = ${orderId}`),
    };
  }),
  "POST /api/admin/fulfillments/{id}/retry": audited(async (f) => {
    const { record } = await f.saas();
    await f.sql()`update fulfillment_records set status = 'failed', last_error = 'down' where id = ${record.id}`;
    return { path: `/api/admin/fulfillments/${record.id}/retry` };
  }),
  "POST /api/admin/fulfillments/{id}/sync": audited(async (f) => ({
    path: `/api/admin/fulfillments/${(await f.saas()).record.id}/sync`,
    body: { reason: "checking" },
  })),
  "POST /api/admin/fulfillments/{id}/suspend": audited(async (f) => ({
    path: `/api/admin/fulfillments/${(await f.saas()).record.id}/suspend`,
    body: { reason: "unpaid" },
  })),
  "POST /api/admin/fulfillments/{id}/cancel": audited(async (f) => ({
    path: `/api/admin/fulfillments/${(await f.saas()).record.id}/cancel`,
    body: { reason: "asked to" },
  })),
  "POST /api/admin/manual-tasks/{id}/complete": audited(async (f) => ({
    path: `/api/admin/manual-tasks/${await f.manualTask()}/complete`,
    body: { url: "https://workspace.example.com/", notes: "done" },
  })),
  "POST /api/admin/jobs/{id}/redrive": audited(async (f) => {
    const [job] = await f.sql()<{ id: string }[]>`
      insert into jobs (kind, payload, state, attempts, max_attempts, last_error)
      values ('idempotency_probe', '{}', 'dead', 3, 3, 'gave up') returning id`;
    return { path: `/api/admin/jobs/${job?.id}/redrive` };
  }),
  ...licenseCases(),
};

function licenseCases(): Record<string, Case> {
  const licensed = (action: string, body?: object, prepare?: (f: Fixtures, id: string) => Promise<void>) =>
    counted(async (f) => {
      const { licenseId } = await f.license();
      await prepare?.(f, licenseId);
      return {
        path: `/api/admin/licenses/${licenseId}/${action}`,
        ...(body ? { body } : {}),
        count: () => f.jobsNaming(licenseId).then(async (jobs) => jobs + (await licenseChanges(f, licenseId))),
      };
    });
  return {
    "POST /api/admin/licenses/{id}/suspend": licensed("suspend"),
    "POST /api/admin/licenses/{id}/reinstate": licensed("reinstate", undefined, async (f, id) => {
      await f.sql()`update licenses set status = 'suspended' where id = ${id}`;
    }),
    "POST /api/admin/licenses/{id}/reset-machines": licensed("reset-machines"),
    "POST /api/admin/licenses/{id}/extend": licensed("extend", { days: 30 }, async (f, id) => {
      await f.sql()`update licenses set expires_at = now() + interval '10 days' where id = ${id}`;
    }),
    "POST /api/admin/licenses/{id}/reissue": licensed("reissue"),
  };
}

/** A license's history of admin changes, counted through the audit entries naming it. */
const licenseChanges = (f: Fixtures, id: string) =>
  f.one(f.sql()<{ n: number }[]>`select count(*)::int n from audit_log where target_id = ${id}`);
