import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers } from "../../support/gateway-mocks.ts";
import { call, expectProblemShape } from "../../support/http.ts";
import { emptyPaddleCatalog, paddleCatalogHandlers } from "../../support/paddle-catalog-mock.ts";

const db = useTestDatabase();
const server = setupServer(
  ...checkoutHandlers([]),
  ...paddleCatalogHandlers(GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_BASE_URL, emptyPaddleCatalog()),
  http.post(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/refunds`, () =>
    HttpResponse.json({
      id: `re_${crypto.randomUUID().slice(0, 8)}`,
      object: "refund",
      amount: 4900,
      currency: "usd",
      status: "succeeded",
      payment_intent: "pi_1",
    }),
  ),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
/** Sets the stage (products to buy, the customer's orders); its own entries are not looked at. */
let stagehand = "";
let customer = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV });
  stagehand = await tokenFor("admin");
  customer = await tokenFor("customer");
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

const sql = () => db.current.sql;
const send = (token: string, method: string, path: string, body?: object) =>
  call(marketplace.app, method, path, { token, ...(body ? { body } : {}) });

/** A signed-in admin: its id, and requests in its name. */
async function anAdmin() {
  const id = crypto.randomUUID();
  const token = await tokenFor("admin", id);
  return { id, token, as: (method: string, path: string, body?: object) => send(token, method, path, body) };
}

interface AuditItem {
  id: string;
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  at: string;
  summary: Record<string, unknown>;
}

async function auditOf(actorId: string, query = ""): Promise<AuditItem[]> {
  const response = await send(stagehand, "GET", `/api/admin/audit-log?actor_id=${actorId}&limit=100${query}`);
  expect(response.status).toBe(200);
  return response.body.items;
}

/** An order of `count` items of a manual-delivery product, checked out through gateway_b and paid. */
async function aPaidOrder(count = 1) {
  const product = await send(stagehand, "POST", "/api/admin/products", {
    name: "Setup Service",
    slug: `setup-${crypto.randomUUID().slice(0, 8)}`,
    status: "published",
    delivery_model: "managed_setup",
    fulfillment_driver: "manual_fulfillment",
    price_regular: 4900,
    fulfillment_config: { queue_id: "onboarding", sla_hours: 48, instructions_template: "Set up {{order_id}}" },
  });
  const checkout = await send(customer, "POST", "/api/checkout/create", {
    items: Array.from({ length: count }, () => ({ product_id: product.body.id, variant: "regular" })),
    payment_gateway: "gateway_b",
  });
  const orderId = checkout.body.order_id as string;
  await sql()`update orders set status = 'paid' where id = ${orderId}`;
  await sql()`
    insert into payments (order_id, gateway, payment_id, amount, currency)
    values (${orderId}, 'gateway_b', ${`pi_${crypto.randomUUID().slice(0, 8)}`}, ${4900 * count}, 'USD')`;
  const items = await sql()<{ id: string; product_id: string }[]>`
    select id, product_id from order_items where order_id = ${orderId} order by position`;
  const [order] = await sql()<{ customer_id: string }[]>`select customer_id from orders where id = ${orderId}`;
  return { orderId, items, customerId: order?.customer_id ?? "" };
}

/** A manual delivery of an order item in `status`, with its operations task (open while it is pending). */
async function aManualDelivery(
  order: Awaited<ReturnType<typeof aPaidOrder>>,
  index: number,
  status: "failed" | "active" | "manual_pending",
) {
  const item = order.items[index];
  if (!item) throw new Error("no such item");
  const [record] = await sql()<{ id: string }[]>`
    insert into fulfillment_records (order_id, order_item_id, product_id, customer_id, driver, status, external_status)
    values (${order.orderId}, ${item.id}, ${item.product_id}, ${order.customerId}, 'manual_fulfillment', ${status},
            ${status === "active" ? "open" : null})
    returning id`;
  const [task] = await sql()<{ id: string }[]>`
    insert into ops_tasks (fulfillment_record_id, kind, queue_id, instructions, due_at, status)
    values (${record?.id ?? ""}, 'manual_fulfillment', 'onboarding', 'Set it up.', now() + interval '2 days',
            ${status === "manual_pending" ? "open" : "completed"})
    returning id`;
  await sql()`update fulfillment_records set external_reference_id = ${task?.id ?? ""} where id = ${record?.id ?? ""}`;
  return { recordId: record?.id ?? "", taskId: task?.id ?? "" };
}

async function aDeadJob() {
  const [job] = await sql()<{ id: string }[]>`
    insert into jobs (kind, payload, state, attempts, last_error)
    values ('audit_test_job', '{}', 'dead', 8, 'gave up') returning id::text as id`;
  return job?.id ?? "";
}

describe("the audit log", () => {
  test("each admin action that changes state is exactly one entry naming the admin", async () => {
    const admin = await anAdmin();
    const expected: string[] = [];
    const did = async (action: string, target: string, response: Promise<{ status: number }>) => {
      expect((await response).status).toBeLessThan(300);
      expected.push(`${action} ${target}`);
    };

    const created = await admin.as("POST", "/api/admin/products", aLicenseProduct({ price_regular: 4900 }));
    expect(created.status).toBe(201);
    const productId = created.body.id as string;
    expected.push(`product.create ${productId}`);
    await did(
      "product.update",
      productId,
      admin.as(
        "PUT",
        `/api/admin/products/${productId}`,
        aLicenseProduct({ slug: created.body.slug, name: "Ledger 2" }),
      ),
    );
    await did(
      "pricing_mapping.write",
      productId,
      admin.as("POST", "/api/admin/products/pricing-mappings/bulk", {
        product_id: productId,
        mappings: [{ payment_type: "one_time", license_type: "extended", price: 9900, is_active: true }],
      }),
    );
    await did(
      "gateway_product.create",
      productId,
      admin.as("POST", "/api/admin/gateway_a/products/create", { product_id: productId }),
    );
    await did("gateway_product.sync", productId, admin.as("PUT", `/api/admin/gateway_a/products/${productId}/sync`));
    await did("product.delete", productId, admin.as("DELETE", `/api/admin/products/${productId}`));
    await did(
      "gateway_settings.update",
      "gateway_a",
      admin.as("PUT", "/api/admin/gateway_a/settings", { timeout_seconds: 7 }),
    );
    await did(
      "gateway_settings.update",
      "gateway_b",
      admin.as("PUT", "/api/admin/gateway_b/settings", { live: { api_key: "sk_live_audit_0123456789" } }),
    );
    // The API key given with the settings is a secret stored: its own entry, in its own transaction.
    expected.push("secret.set gateway_b_live_api_key");
    await did("secret.set", "audit_ref", admin.as("PUT", "/api/admin/secrets/audit_ref", { value: "a-value" }));
    const someone = crypto.randomUUID();
    await tokenFor("customer", someone);
    await did("user.update", someone, admin.as("PATCH", `/api/admin/users/${someone}`, { role: "admin" }));

    const refunded = await aPaidOrder();
    await did("order.refund", refunded.orderId, admin.as("POST", `/api/admin/orders/${refunded.orderId}/refund`, {}));
    const flagged = await aPaidOrder();
    await sql()`
      update orders set status = 'flagged', needs_attention = true, attention_reason = 'amount differs'
      where id = ${flagged.orderId}`;
    await did("order.approve", flagged.orderId, admin.as("POST", `/api/admin/orders/${flagged.orderId}/approve`));

    const delivered = await aPaidOrder(3);
    const failed = await aManualDelivery(delivered, 0, "failed");
    const active = await aManualDelivery(delivered, 1, "active");
    const pending = await aManualDelivery(delivered, 2, "manual_pending");
    const fulfillment = (id: string, verb: string) => admin.as("POST", `/api/admin/fulfillments/${id}/${verb}`, {});
    await did("fulfillment.retry", failed.recordId, fulfillment(failed.recordId, "retry"));
    await did("fulfillment.sync", active.recordId, fulfillment(active.recordId, "sync"));
    await did("fulfillment.suspend", active.recordId, fulfillment(active.recordId, "suspend"));
    await did("fulfillment.cancel", active.recordId, fulfillment(active.recordId, "cancel"));
    await did(
      "manual_task.complete",
      pending.taskId,
      admin.as("POST", `/api/admin/manual-tasks/${pending.taskId}/complete`, { url: "https://shop.example.com" }),
    );
    const job = await aDeadJob();
    await did("job.redrive", job, admin.as("POST", `/api/admin/jobs/${job}/redrive`));

    const entries = await auditOf(admin.id);
    expect(entries.map((entry) => `${entry.action} ${entry.target_id}`).sort()).toEqual(expected.sort());
    expect(entries.every((entry) => entry.actor_id === admin.id)).toBeTrue();
    const ids = entries.map((entry) => Number(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(entries[0]).toMatchObject({
      action: "job.redrive",
      target_type: "job",
      summary: { kind: "audit_test_job" },
    });
    expect(entries.find((entry) => entry.action === "order.refund")).toMatchObject({
      target_type: "order",
      summary: { amount: 4900, gateway: "gateway_b" },
    });
  });

  test("filters by actor, target and action, and pages newest first with an opaque cursor", async () => {
    const admin = await anAdmin();
    for (const ref of ["page_one", "page_two", "page_three"]) {
      await admin.as("PUT", `/api/admin/secrets/${ref}`, { value: "v" });
    }
    const someone = crypto.randomUUID();
    await tokenFor("customer", someone);
    await admin.as("PATCH", `/api/admin/users/${someone}`, { disabled: true });

    const all = await auditOf(admin.id);
    expect(all.map((entry) => entry.target_id)).toEqual([someone, "page_three", "page_two", "page_one"]);
    expect((await auditOf(admin.id, "&action=secret.set")).map((entry) => entry.target_id)).toEqual([
      "page_three",
      "page_two",
      "page_one",
    ]);
    expect(await auditOf(admin.id, "&target_id=page_two")).toEqual([all[2] as AuditItem]);
    expect(await auditOf(admin.id, "&action=user.update&target_id=page_two")).toEqual([]);
    const byTarget = await send(stagehand, "GET", `/api/admin/audit-log?target_id=${someone}`);
    expect(byTarget.body.items).toEqual([all[0]]);

    const walked: AuditItem[] = [];
    let cursor: string | null = "";
    do {
      const page = await send(stagehand, "GET", `/api/admin/audit-log?actor_id=${admin.id}&limit=1&cursor=${cursor}`);
      expect(page.body.items).toHaveLength(1);
      walked.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(walked).toEqual(all);
  });

  test("bad filters and cursors are problems, and only admins may read", async () => {
    const bad = (query: string) => send(stagehand, "GET", `/api/admin/audit-log?${query}`);
    expectProblemShape(await bad("cursor=garbage"), 422, "VALIDATION_FAILED");
    expectProblemShape(
      await bad(`cursor=${Buffer.from('["1; drop"]').toString("base64url")}`),
      422,
      "VALIDATION_FAILED",
    );
    expectProblemShape(await bad("actor_id=not-a-uuid"), 422, "VALIDATION_FAILED");
    expectProblemShape(await bad("action=DROP%20TABLE"), 422, "VALIDATION_FAILED");
    expectProblemShape(await bad("limit=0"), 422, "VALIDATION_FAILED");
    expectProblemShape(await bad("limit=101"), 422, "VALIDATION_FAILED");
    expectProblemShape(await call(marketplace.app, "GET", "/api/admin/audit-log"), 401, "AUTHENTICATION_REQUIRED");
    expectProblemShape(await send(customer, "GET", "/api/admin/audit-log"), 403, "FORBIDDEN_ROLE");
  });

  test("no secret value set through the API ever appears in the audit log", async () => {
    const admin = await anAdmin();
    const secret = `audit-secret-${crypto.randomUUID()}`;
    const apiKey = `sk_live_${crypto.randomUUID().replaceAll("-", "")}`;
    await admin.as("PUT", "/api/admin/secrets/hidden_value", { value: secret });
    await admin.as("PUT", "/api/admin/gateway_b/settings", {
      live: { api_key: apiKey, base_url: "https://api.stripe.test" },
    });

    const entries = await auditOf(admin.id);
    expect(entries.map((entry) => `${entry.action} ${entry.target_id}`)).toEqual([
      "gateway_settings.update gateway_b",
      "secret.set gateway_b_live_api_key",
      // The key now goes to a new address: recorded before anything that sends it there is stored.
      "secret.destination_change gateway_b_live_api_key",
      "secret.set hidden_value",
    ]);
    expect(entries[1]?.summary).toEqual({
      ref: "gateway_b_live_api_key",
      value_set: true,
      via: "gateway_b live settings",
    });
    expect(entries[3]?.summary).toEqual({ ref: "hidden_value", value_set: true });
    expect(entries[0]?.summary).toEqual({ live: { api_key: "[redacted]", base_url: "https://api.stripe.test" } });
    const body = JSON.stringify(entries);
    expect(body).not.toContain(secret);
    expect(body).not.toContain(apiKey);
    const [stored] = await sql()<{ n: number }[]>`
      select count(*)::int as n from audit_log where summary::text like ${`%${secret}%`} or summary::text like ${`%${apiKey}%`}`;
    expect(stored?.n).toBe(0);
  });

  test("a change that fails leaves no entry", async () => {
    const admin = await anAdmin();
    const unknown = crypto.randomUUID();
    const refundedAlready = await aPaidOrder();
    await sql()`update payments set refunded_amount = amount where order_id = ${refundedAlready.orderId}`;
    const refusals = [
      [await admin.as("POST", `/api/admin/orders/${refundedAlready.orderId}/refund`, {}), 409],
      [await admin.as("POST", `/api/admin/orders/${unknown}/refund`, {}), 404],
      [await admin.as("POST", `/api/admin/orders/${refundedAlready.orderId}/approve`), 409],
      [await admin.as("PUT", `/api/admin/products/${unknown}`, aLicenseProduct()), 404],
      [await admin.as("DELETE", `/api/admin/products/${unknown}`), 404],
      [
        await admin.as("POST", "/api/admin/products/pricing-mappings/bulk", {
          product_id: unknown,
          mappings: [{ payment_type: "one_time", license_type: "regular", price: 100, is_active: true }],
        }),
        404,
      ],
      [await admin.as("POST", `/api/admin/fulfillments/${unknown}/retry`), 404],
      [await admin.as("POST", `/api/admin/fulfillments/${unknown}/cancel`, {}), 404],
      [await admin.as("POST", `/api/admin/manual-tasks/${unknown}/complete`, {}), 404],
      [await admin.as("POST", "/api/admin/jobs/999999999/redrive"), 404],
      [await admin.as("PATCH", `/api/admin/users/${unknown}`, { role: "admin" }), 404],
      [await admin.as("PATCH", `/api/admin/users/${admin.id}`, { disabled: true }), 409],
      [await admin.as("PUT", "/api/admin/gateway_a/settings", { sandbox: { base_url: "ftp://files.example" } }), 422],
      [await admin.as("POST", "/api/admin/gateway_a/products/create", { product_id: unknown }), 404],
    ] as const;
    expect(refusals.map(([response]) => response.status)).toEqual(refusals.map(([, status]) => status));
    expect(await auditOf(admin.id)).toEqual([]);
  });
});
