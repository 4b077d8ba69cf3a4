import { beforeAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct, aPointOfSaleProduct, subscriptionMappings } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const app = () => createTestApp(db.current.sql);
let admin = "";
beforeAll(async () => {
  admin = await tokenFor("admin");
});

async function create(input: object) {
  const response = await call(app(), "POST", "/api/admin/products", { token: admin, body: input });
  expect(response.status).toBe(201);
  return response.body as { id: string; [key: string]: unknown };
}

describe("admin product management", () => {
  test("needs an admin: 401 without a token, 403 for a customer", async () => {
    expectProblemShape(await call(app(), "GET", "/api/admin/products"), 401, "AUTHENTICATION_REQUIRED");
    const customer = await tokenFor("customer");
    expectProblemShape(await call(app(), "GET", "/api/admin/products", { token: customer }), 403, "FORBIDDEN_ROLE");
  });

  test("every rule-4 field, nested management included, comes back identical", async () => {
    const input = aPointOfSaleProduct();
    const created = await create(input);
    const fetched = await call(app(), "GET", `/api/admin/products/${created.id}`, { token: admin });
    expect(fetched.status).toBe(200);
    for (const [field, value] of Object.entries(input)) expect([field, fetched.body[field]]).toEqual([field, value]);
    expect(fetched.body.checkout_options).toEqual({
      variants: [
        { variant: "monthly", payment_type: "subscription", billing_interval: "monthly", price: 3100, currency: "USD" },
        { variant: "yearly", payment_type: "subscription", billing_interval: "yearly", price: 31000, currency: "USD" },
      ],
      payment_gateways: ["gateway_a", "gateway_b"],
      default_payment_gateway: "gateway_b",
      trial_days: 14,
    });
  });

  test("PUT replaces the definition and the change round-trips", async () => {
    const created = await create(aPointOfSaleProduct());
    const changed = aPointOfSaleProduct({
      slug: `renamed-${crypto.randomUUID().slice(0, 6)}`,
      supports_trial: false,
      trial_days: null,
      enabled_payment_gateways: ["gateway_a"],
      default_payment_gateway: "gateway_a",
    });
    const updated = await call(app(), "PUT", `/api/admin/products/${created.id}`, { token: admin, body: changed });
    expect(updated.status).toBe(200);
    const fetched = await call(app(), "GET", `/api/admin/products/${created.id}`, { token: admin });
    for (const [field, value] of Object.entries(changed)) expect([field, fetched.body[field]]).toEqual([field, value]);
  });

  test("an invalid combination is a 422 naming each field with a code, and nothing is stored", async () => {
    const bad = aPointOfSaleProduct({
      delivery_model: "managed_setup",
      fulfillment_config: { ...aPointOfSaleProduct().fulfillment_config, api_token: "x", timeout_seconds: 0 },
    });
    const response = await call(app(), "POST", "/api/admin/products", { token: admin, body: bad });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(response.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ["/fulfillment_driver", "INCOMPATIBLE_DRIVER"],
      ["/fulfillment_config/api_token", "SECRET_NOT_ALLOWED"],
      ["/fulfillment_config/timeout_seconds", "OUT_OF_RANGE"],
    ]);
    const [row] = await db.current.sql`select count(*)::int as n from products where slug = ${bad.slug}`;
    expect(row?.n).toBe(0);
  });

  test("unknown top-level fields and wrong types are schema violations", async () => {
    const response = await call(app(), "POST", "/api/admin/products", {
      token: admin,
      body: { ...aLicenseProduct(), is_recurring: "yes", surprise: 1 },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    const paths = response.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain("/is_recurring");
  });

  test("a taken slug is a 409 on create and on update", async () => {
    const first = await create(aLicenseProduct());
    const clash = await call(app(), "POST", "/api/admin/products", {
      token: admin,
      body: aLicenseProduct({ slug: first.slug as string }),
    });
    expectProblemShape(clash, 409, "SLUG_TAKEN");
    const second = await create(aLicenseProduct());
    const updateClash = await call(app(), "PUT", `/api/admin/products/${second.id}`, {
      token: admin,
      body: aLicenseProduct({ slug: first.slug as string }),
    });
    expectProblemShape(updateClash, 409, "SLUG_TAKEN");
  });

  test("DELETE archives; an unknown id is a 404", async () => {
    const created = await create(aLicenseProduct());
    const deleted = await call(app(), "DELETE", `/api/admin/products/${created.id}`, { token: admin });
    expect(deleted.body.status).toBe("archived");
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      expectProblemShape(
        await call(app(), "GET", `/api/admin/products/${id}`, { token: admin }),
        404,
        "PRODUCT_NOT_FOUND",
      );
    }
  });

  test("the admin list filters by status and pages with a cursor", async () => {
    const draft = await create(aLicenseProduct({ status: "draft", name: "Zz draft" }));
    const drafts = await call(app(), "GET", "/api/admin/products?status=draft", { token: admin });
    expect(drafts.body.items.map((p: { id: string }) => p.id)).toContain(draft.id);
    expect(drafts.body.items.every((p: { status: string }) => p.status === "draft")).toBeTrue();
    const firstPage = await call(app(), "GET", "/api/admin/products?limit=2", { token: admin });
    expect(firstPage.body.items).toHaveLength(2);
    const next = await call(app(), "GET", `/api/admin/products?limit=2&cursor=${firstPage.body.next_cursor}`, {
      token: admin,
    });
    const ids = [...firstPage.body.items, ...next.body.items].map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("driver hints and checkout preview", () => {
  test("fulfillment-drivers lists every driver with models, schema and required keys", async () => {
    const response = await call(app(), "GET", "/api/admin/fulfillment-drivers", { token: admin });
    const saas = response.body.items.find((d: { driver: string }) => d.driver === "multitenant_saas");
    expect(response.body.items).toHaveLength(4);
    expect(saas.delivery_models).toEqual(["saas_multitenant"]);
    expect(saas.required_keys).toContain("credentials_ref");
    expect(saas.config_schema.properties.timeout_seconds).toEqual(
      expect.objectContaining({ type: "integer", minimum: 1, maximum: 120 }),
    );
  });

  test("checkout-preview shows what a customer would see, draft or not", async () => {
    const created = await create(aLicenseProduct({ status: "draft" }));
    const preview = await call(app(), "GET", `/api/admin/products/${created.id}/checkout-preview`, { token: admin });
    expect(preview.body).toEqual({
      product_id: created.id,
      status: "draft",
      purchasable: false,
      checkout_options: {
        variants: [
          { variant: "regular", payment_type: "one_time", license_type: "regular", price: 4900, currency: "USD" },
          { variant: "extended", payment_type: "one_time", license_type: "extended", price: 14900, currency: "USD" },
        ],
        payment_gateways: ["gateway_a", "gateway_b"],
        default_payment_gateway: "gateway_a",
        trial_days: null,
      },
    });
  });
});

describe("pricing mappings", () => {
  const bulk = (product_id: string, mappings: object[]) =>
    call(app(), "POST", "/api/admin/products/pricing-mappings/bulk", { token: admin, body: { product_id, mappings } });

  test("bulk save replaces the set, and the list returns it in order", async () => {
    const product = await create(aPointOfSaleProduct());
    expect((await bulk(product.id, subscriptionMappings(1000, 10000))).status).toBe(200);
    const replaced = await bulk(product.id, [
      { payment_type: "subscription", billing_interval: "yearly", price: 9000, is_active: true },
    ]);
    expect(replaced.body.items).toHaveLength(1);
    const listed = await call(app(), "GET", `/api/admin/products/${product.id}/pricing-mappings`, { token: admin });
    expect(
      listed.body.items.map((m: { billing_interval: string; price: number }) => [m.billing_interval, m.price]),
    ).toEqual([["yearly", 9000]]);
  });

  test("one bad row saves nothing and leaves the stored mappings unchanged", async () => {
    const product = await create(aPointOfSaleProduct());
    await bulk(product.id, subscriptionMappings(1000, 10000));
    const response = await bulk(product.id, [
      { payment_type: "subscription", billing_interval: "monthly", price: 1200, is_active: true },
      { payment_type: "one_time", license_type: "regular", price: 500, is_active: true },
    ]);
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(response.body.errors).toContainEqual(
      expect.objectContaining({ path: "/mappings/1/payment_type", code: "PAYMENT_TYPE_MISMATCH" }),
    );
    const listed = await call(app(), "GET", `/api/admin/products/${product.id}/pricing-mappings`, { token: admin });
    expect(listed.body.items.map((m: { price: number }) => m.price)).toEqual([1000, 10000]);
  });

  test("two active mappings for one variant are refused", async () => {
    const product = await create(aPointOfSaleProduct());
    const response = await bulk(product.id, [...subscriptionMappings(1, 2), ...subscriptionMappings(3, 4)]);
    expect(response.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ["/mappings/2/is_active", "DUPLICATE_ACTIVE_VARIANT"],
      ["/mappings/3/is_active", "DUPLICATE_ACTIVE_VARIANT"],
    ]);
  });

  test("mappings of an unknown product are a 404", async () => {
    expectProblemShape(await bulk(crypto.randomUUID(), []), 404, "PRODUCT_NOT_FOUND");
  });

  test("an active mapping wins over the base price in the admin view", async () => {
    const product = await create(aPointOfSaleProduct({ price_monthly: 5000 }));
    await bulk(product.id, [
      { payment_type: "subscription", billing_interval: "monthly", price: 4500, is_active: true },
    ]);
    const fetched = await call(app(), "GET", `/api/admin/products/${product.id}`, { token: admin });
    const prices = fetched.body.checkout_options.variants.map((v: { variant: string; price: number }) => [
      v.variant,
      v.price,
    ]);
    expect(prices).toEqual([
      ["monthly", 4500],
      ["yearly", 31000],
    ]);
  });
});
