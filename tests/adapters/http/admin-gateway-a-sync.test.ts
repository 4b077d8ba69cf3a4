import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { call } from "../../support/http.ts";
import { emptyPaddleCatalog, paddleCatalogHandlers } from "../../support/paddle-catalog-mock.ts";

const db = useTestDatabase();
const sandbox = emptyPaddleCatalog();
const live = emptyPaddleCatalog();
const server = setupServer(
  ...paddleCatalogHandlers(GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_BASE_URL, sandbox, { createDelayMs: 50 }),
  ...paddleCatalogHandlers(GATEWAY_TEST_ENV.GATEWAY_A_LIVE_BASE_URL, live),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV });
  admin = await tokenFor("admin");
});
beforeEach(() => {
  sandbox.calls.length = 0;
  live.calls.length = 0;
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

const app = () => marketplace.app;
const as = (method: string, path: string, body?: object) =>
  call(app(), method, path, { token: admin, ...(body ? { body } : {}) });
async function product(input: object) {
  return (await as("POST", "/api/admin/products", input)).body as { id: string; [k: string]: unknown };
}
const setEnvironment = (environment: "sandbox" | "live") => as("PUT", "/api/admin/gateway_a/settings", { environment });

describe("gateway_a product create", () => {
  test("two sequential creates make one remote product", async () => {
    const { id } = await product(aLicenseProduct());
    const first = await as("POST", "/api/admin/gateway_a/products/create", { product_id: id });
    const second = await as("POST", "/api/admin/gateway_a/products/create", { product_id: id });
    expect(first.body.product_action).toBe("created");
    expect(second.body).toMatchObject({ product_action: "unchanged", remote_product_id: first.body.remote_product_id });
    expect(sandbox.calls.filter((c) => c.startsWith("POST /products"))).toEqual([`POST /products ${id}`]);
  });

  test("concurrent creates make one remote product", async () => {
    const { id } = await product(aLicenseProduct());
    const results = await Promise.all(
      Array.from({ length: 5 }, () => as("POST", "/api/admin/gateway_a/products/create", { product_id: id })),
    );
    expect(new Set(results.map((r) => r.body.remote_product_id)).size).toBe(1);
    expect(sandbox.calls.filter((c) => c === `POST /products ${id}`)).toHaveLength(1);
  });

  test("a remote product created by an earlier run is found by lookup, not created again", async () => {
    const { id } = await product(aLicenseProduct());
    sandbox.products.set("pro_orphan", {
      id: "pro_orphan",
      name: "Orphan",
      custom_data: { marketplace_product_id: id },
    });
    const response = await as("POST", "/api/admin/gateway_a/products/create", { product_id: id });
    expect(response.body).toMatchObject({ product_action: "relinked", remote_product_id: "pro_orphan" });
    expect(sandbox.calls.some((c) => c.startsWith("POST /products"))).toBeFalse();
  });
});

describe("gateway_a sync", () => {
  test("sends exactly the price calls the mapping rules imply, base-field fallback included", async () => {
    const { id } = await product(
      aLicenseProduct({
        is_recurring: true,
        price_regular: 4900,
        price_extended: 14900,
        price_monthly: null,
        price_yearly: 9000,
      }),
    );
    await as("POST", "/api/admin/products/pricing-mappings/bulk", {
      product_id: id,
      mappings: [
        { payment_type: "one_time", license_type: "regular", price: 3900, is_active: true },
        { payment_type: "one_time", license_type: "extended", price: 99999, is_active: false },
        { payment_type: "subscription", billing_interval: "monthly", price: 990, is_active: true },
      ],
    });
    const synced = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    expect(synced.status).toBe(200);
    expect(sandbox.calls.filter((c) => c.startsWith("POST /prices"))).toEqual([
      "POST /prices regular 3900 USD once",
      "POST /prices extended 14900 USD once",
      "POST /prices monthly 990 USD month",
      "POST /prices yearly 9000 USD year",
    ]);
    expect(
      synced.body.variants.map((v: { variant: string; source: string; action: string }) => [
        v.variant,
        v.source,
        v.action,
      ]),
    ).toEqual([
      ["regular", "mapping", "created"],
      ["extended", "base", "created"],
      ["monthly", "mapping", "created"],
      ["yearly", "base", "created"],
    ]);
    const fetched = await as("GET", `/api/admin/products/${id}`);
    expect(fetched.body.gwa_product_id_regular).toBe(synced.body.variants[0].price_id);

    sandbox.calls.length = 0;
    await as("POST", "/api/admin/products/pricing-mappings/bulk", {
      product_id: id,
      mappings: [{ payment_type: "one_time", license_type: "regular", price: 4100, is_active: true }],
    });
    const again = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    expect(sandbox.calls.filter((c) => !c.startsWith("GET"))).toEqual([
      `PATCH /prices/${synced.body.variants[0].price_id} 4100`,
    ]);
    expect(again.body.variants.map((v: { action: string }) => v.action)).toEqual([
      "updated",
      "unchanged",
      "not_for_sale",
      "unchanged",
    ]);
  });

  test("live ids stored while sandbox is active: sync creates sandbox ids and keeps the live ones", async () => {
    await setEnvironment("live");
    const { id } = await product(aPointOfSaleProduct({ price_monthly: 2900, price_yearly: 29000 }));
    const liveSync = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    const liveIds = liveSync.body.variants.map((v: { price_id: string | null }) => v.price_id);
    expect(live.calls.filter((c) => c.startsWith("POST"))).toHaveLength(3);

    await setEnvironment("sandbox");
    const sandboxSync = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    expect(sandboxSync.body.environment).toBe("sandbox");
    expect(sandbox.calls.filter((c) => c.startsWith("POST"))).toEqual([
      `POST /products ${id}`,
      "POST /prices monthly 2900 USD month",
      "POST /prices yearly 29000 USD year",
    ]);
    expect(sandbox.calls.some((c) => liveIds.some((live: string | null) => live && c.includes(live)))).toBeFalse();
    const refs = await db.current.sql<{ environment: string; slot: string; remote_id: string }[]>`
      select environment, slot, remote_id from gateway_product_refs where product_id = ${id} order by environment, slot`;
    expect(
      refs
        .filter((r) => r.environment === "live")
        .map((r) => r.remote_id)
        .sort(),
    ).toEqual([liveSync.body.remote_product_id, ...liveIds.filter(Boolean)].sort());
    expect(refs.filter((r) => r.environment === "sandbox")).toHaveLength(3);

    await setEnvironment("live");
    live.calls.length = 0;
    const back = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    expect(back.body.variants.map((v: { price_id: string | null }) => v.price_id)).toEqual(liveIds);
    expect(live.calls.filter((c) => !c.startsWith("GET"))).toEqual([]);
    await setEnvironment("sandbox");
  });

  test("a stored sandbox id the sandbox answers 404 for is re-created, and the live ids are kept", async () => {
    const { id } = await product(aPointOfSaleProduct({ price_monthly: 2900, price_yearly: 29000 }));
    const first = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    const monthly = first.body.variants.find((v: { variant: string }) => v.variant === "monthly").price_id;
    sandbox.prices.delete(monthly);
    sandbox.products.delete(first.body.remote_product_id);
    sandbox.calls.length = 0;
    const second = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    expect(second.body.product_action).toBe("created");
    expect(sandbox.calls.filter((c) => c.startsWith("POST"))).toEqual([
      `POST /products ${id}`,
      "POST /prices monthly 2900 USD month",
      "POST /prices yearly 29000 USD year",
    ]);
    expect(second.body.variants.find((v: { variant: string }) => v.variant === "monthly").price_id).not.toBe(monthly);
  });

  test("an id typed on the product record is adopted when the active environment knows it", async () => {
    const { id } = await product(
      aPointOfSaleProduct({ price_monthly: 2900, price_yearly: 29000, gwa_product_id_yearly: "pri_typed" }),
    );
    const created = await as("POST", "/api/admin/gateway_a/products/create", { product_id: id });
    sandbox.prices.set("pri_typed", {
      id: "pri_typed",
      product_id: created.body.remote_product_id,
      amount: "29000",
      currency_code: "USD",
      interval: "year",
      variant: "yearly",
      tax_mode: "external",
    });
    const synced = await as("PUT", `/api/admin/gateway_a/products/${id}/sync`);
    expect(synced.body.variants.find((v: { variant: string }) => v.variant === "yearly")).toMatchObject({
      action: "relinked",
      price_id: "pri_typed",
    });
  });
});
