import { describe, expect, test } from "bun:test";
import { createLicenseSigner } from "../../adapters/licensing/license-signer.ts";
import { TEST_LICENSE_KEYS } from "../support/app.ts";
import { aDedicatedInstallationProduct, aLicenseProduct, aManagedSetupProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentsOf,
  http,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

async function statusOf(orderId: string, status: string) {
  return eventually(
    async () => {
      const [record] = await fulfillmentsOf(db, orderId);
      return record?.status === status ? record : undefined;
    },
    4000,
    `a ${status} fulfillment`,
  );
}

async function readyNotified(customer: { token: string }, fulfillmentId: string) {
  return eventually(
    async () => {
      const list = await http(e2e.url, "GET", "/api/notifications", { token: customer.token });
      return list.body.items.some(
        (n: { kind: string; data: { fulfillment_id: string } }) =>
          n.kind === "fulfillment.ready" && n.data.fulfillment_id === fulfillmentId,
      );
    },
    3000,
    "a fulfillment.ready notification",
  );
}

async function openTaskFor(fulfillmentId: string, admin: string) {
  const tasks = await http(e2e.url, "GET", "/api/admin/manual-tasks?status=open&limit=100", { token: admin });
  const task = tasks.body.items.find(
    (t: { fulfillment_record_id: string }) => t.fulfillment_record_id === fulfillmentId,
  );
  expect(task).toBeDefined();
  return task as { id: string; kind: string; queue_id: string; instructions: string; due_at: string };
}

describe("the other three drivers", () => {
  test("license: a signed key and a download entitlement, active, with fulfillment.ready", async () => {
    const product = await createProduct(e2e, aLicenseProduct({ default_release_version: "3.1.0" }));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(
      e2e,
      customer,
      [{ product_id: product.id, variant: "extended", quantity: 2 }],
      "gateway_a",
    );
    const record = await statusOf(orderId, "active");
    const [license] = await db.current.sql<{ license_key: string; max_activations: number }[]>`
      select license_key, max_activations from licenses where fulfillment_record_id = ${record.id}`;
    const claims = await createLicenseSigner(TEST_LICENSE_KEYS).verify(license?.license_key ?? "");
    expect(claims).toMatchObject({ pid: product.id, cid: expect.any(String), max: 6, exp: null });
    const [entitlement] = await db.current.sql`
      select version, revoked_at from download_entitlements where fulfillment_record_id = ${record.id}`;
    expect(entitlement).toMatchObject({ version: "3.1.0", revoked_at: null });
    await readyNotified(customer, record.id);
  });

  test("single-tenant with customer_domain: awaiting_customer, customer input, ops completes, active", async () => {
    const admin = await adminToken(e2e);
    const product = await createProduct(e2e, aDedicatedInstallationProduct({ name: "Dedicated Books" }));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    const waiting = await statusOf(orderId, "awaiting_customer");
    await eventually(
      async () => {
        const list = await http(e2e.url, "GET", "/api/notifications?unread=true", { token: customer.token });
        return list.body.items.some(
          (n: { kind: string; data: { fulfillment_id: string } }) =>
            n.kind === "fulfillment.action_required" && n.data.fulfillment_id === waiting.id,
        );
      },
      3000,
      "a fulfillment.action_required notification",
    );
    const bad = await http(e2e.url, "POST", `/api/fulfillments/${waiting.id}/customer-input`, {
      token: customer.token,
      body: { domain: "not a domain" },
    });
    expect(bad.status).toBe(422);
    const input = await http(e2e.url, "POST", `/api/fulfillments/${waiting.id}/customer-input`, {
      token: customer.token,
      body: { domain: "books.example.com" },
    });
    expect(input.body.status).toBe("processing");
    const pending = await statusOf(orderId, "manual_pending");
    const task = await openTaskFor(pending.id, admin);
    expect(task.kind).toBe("provisioning");
    expect(task.instructions).toContain("books.example.com");
    const completed = await http(e2e.url, "POST", `/api/admin/manual-tasks/${task.id}/complete`, {
      token: admin,
      body: { url: "https://books.example.com" },
    });
    expect(completed.body).toMatchObject({ status: "active", external_workspace_url: "https://books.example.com" });
    await readyNotified(customer, pending.id);
  });

  test("manual: manual_pending with an SLA task, then complete, then active", async () => {
    const admin = await adminToken(e2e);
    const product = await createProduct(
      e2e,
      aManagedSetupProduct({
        sla_hours: 48,
        instructions_template: "Set up {{customer_email}} for order {{order_id}}",
      }),
    );
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_a");
    const pending = await statusOf(orderId, "manual_pending");
    const task = await openTaskFor(pending.id, admin);
    expect(task).toMatchObject({ kind: "manual_fulfillment", queue_id: "onboarding" });
    expect(task.instructions).toContain(orderId);
    const hours = (Date.parse(task.due_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThan(48.1);
    const completed = await http(e2e.url, "POST", `/api/admin/manual-tasks/${task.id}/complete`, {
      token: admin,
      body: { notes: "done over a call" },
    });
    expect(completed.body.status).toBe("active");
    await readyNotified(customer, pending.id);
    const again = await http(e2e.url, "POST", `/api/admin/manual-tasks/${task.id}/complete`, {
      token: admin,
      body: {},
    });
    expect(again.status).toBe(404);
  });
});
