import { beforeAll, describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, createProduct, http, registerCustomer, useE2e } from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
let admin = "";
beforeAll(async () => {
  admin = await adminToken(e2e);
});

const call = (method: string, path: string, body?: object) =>
  http(e2e.url, method, path, { token: admin, ...(body ? { body } : {}) });
const aCode = () => `SPRING-${crypto.randomUUID().slice(0, 8)}`;

describe("an admin's discount codes", () => {
  test("are created, found by code (any case) and by product, changed where money allows, and disabled", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const code = aCode();
    const created = await call("POST", "/api/admin/discounts", {
      code,
      type: "fixed",
      amount: 500,
      duration: "repeating",
      duration_in_months: 2,
      max_redemptions: 100,
      product_ids: [product.id],
      variants: ["regular"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code,
      type: "fixed",
      amount: 500,
      currency: "USD",
      duration: "repeating",
      duration_in_months: 2,
      redemptions: 0,
      state: "active",
      product_ids: [product.id],
    });
    const id = created.body.id as string;

    const byCode = await call("GET", `/api/admin/discounts?code=${code.toLowerCase()}`);
    expect(byCode.body.items.map((d: { id: string }) => d.id)).toEqual([id]);
    const byProduct = await call("GET", `/api/admin/discounts?product_id=${product.id}&state=active`);
    expect(byProduct.body.items.map((d: { id: string }) => d.id)).toContain(id);

    const taken = await call("POST", "/api/admin/discounts", {
      code: code.toLowerCase(),
      type: "percent",
      amount: 1000,
      duration: "once",
    });
    expect(taken).toMatchObject({ status: 409, body: { code: "DISCOUNT_CODE_TAKEN" } });

    const refused = await call("PATCH", `/api/admin/discounts/${id}`, {
      amount: 100,
      expires_at: "2020-01-01T00:00:00Z",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { path: string; code: string }) => `${e.path} ${e.code}`).sort()).toEqual([
      "/amount IMMUTABLE",
      "/expires_at IN_THE_PAST",
    ]);
    const changed = await call("PATCH", `/api/admin/discounts/${id}`, {
      max_redemptions: 5,
      expires_at: "2099-01-01T00:00:00Z",
    });
    expect(changed.body).toMatchObject({ max_redemptions: 5, expires_at: "2099-01-01T00:00:00.000Z", amount: 500 });

    const disabled = await call("POST", `/api/admin/discounts/${id}/disable`);
    expect(disabled.body).toMatchObject({ state: "disabled" });
    expect((await call("POST", `/api/admin/discounts/${id}/disable`)).body.disabled_at).toBe(disabled.body.disabled_at);
    expect(await call("PATCH", `/api/admin/discounts/${id}`, { max_redemptions: 6 })).toMatchObject({
      status: 409,
      body: { code: "DISCOUNT_DISABLED" },
    });
    // Disabled, the code is free for a new discount.
    expect(
      (await call("POST", "/api/admin/discounts", { code, type: "percent", amount: 1000, duration: "once" })).status,
    ).toBe(201);

    const audit = await call("GET", `/api/admin/audit-log?target_id=${id}`);
    expect(audit.body.items.map((e: { action: string }) => e.action).sort()).toEqual([
      "discount.create",
      "discount.disable",
      "discount.update",
    ]);
  });

  test("bad input is a field error, never a 500; customers and unknown ids get nothing", async () => {
    const bad = await call("POST", "/api/admin/discounts", {
      code: "x",
      type: "percent",
      amount: 20_000,
      duration: "forever",
      product_ids: ["nope"],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(["/code", "/amount", "/product_ids/0"]);
    expect((await call("GET", "/api/admin/discounts/not-a-uuid")).status).toBe(404);
    expect((await call("GET", `/api/admin/discounts/${crypto.randomUUID()}`)).body.code).toBe("DISCOUNT_NOT_FOUND");
    expect((await call("GET", "/api/admin/discounts?product_id=urn:uuid:0")).status).toBe(422);
    const customer = await registerCustomer(e2e);
    const forbidden = await http(e2e.url, "GET", "/api/admin/discounts", { token: customer.token });
    expect(forbidden.status).toBe(403);
  });
});
