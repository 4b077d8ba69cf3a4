import { beforeAll, describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { coercesStrings } from "../../../kit/schema-types.ts";
import { createTestSim } from "../../provider-sim/harness.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape, type JsonResponse } from "../../support/http.ts";

const db = useTestDatabase();
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customer = "";

beforeAll(async () => {
  marketplace = createTestMarketplace(db.current.sql);
  admin = await tokenFor("admin");
  customer = await tokenFor("customer");
});

type Routed = { routes: { method: string; path: string; hooks?: { body?: unknown } }[] };

function bodySchemasThatCoerce(app: Routed): string[] {
  return app.routes
    .filter((route) => route.hooks?.body && coercesStrings(route.hooks.body as TSchema))
    .map((route) => `${route.method} ${route.path}`);
}

const errorsOf = (response: JsonResponse) =>
  (response.body as { errors: { path: string; code: string; message: string }[] }).errors;

describe("no request body field is coerced from another type", () => {
  test("no route of the marketplace or the simulator has a body schema that converts strings", () => {
    expect(marketplace.app.routes.filter((route) => route.hooks?.body).length).toBeGreaterThan(20);
    expect(bodySchemasThatCoerce(marketplace.app as unknown as Routed)).toEqual([]);
    expect(bodySchemasThatCoerce(createTestSim().app as unknown as Routed)).toEqual([]);
  });

  test('quantity: "2" is refused naming the field', async () => {
    const response = await call(marketplace.app, "POST", "/api/checkout/calculate", {
      body: { items: [{ product_id: "p", variant: "regular", quantity: "2" }] },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(errorsOf(response)).toEqual([
      { path: "/items/0/quantity", code: "SCHEMA_VIOLATION", message: "must be an integer" },
    ]);
  });

  test.each([
    ["a price as text", { price: "3900" }, "/mappings/0/price", "must be an integer"],
    ["a flag as text", { is_active: "true" }, "/mappings/0/is_active", "must be a boolean"],
    ["a flag as a number", { is_active: 1 }, "/mappings/0/is_active", "must be a boolean"],
  ])("%s in a bulk mapping save is refused", async (_, override, path, message) => {
    const mapping = { payment_type: "one_time", license_type: "regular", price: 3900, is_active: true, ...override };
    const response = await call(marketplace.app, "POST", "/api/admin/products/pricing-mappings/bulk", {
      token: admin,
      body: { product_id: crypto.randomUUID(), mappings: [mapping] },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(errorsOf(response)).toContainEqual({ path, code: "SCHEMA_VIOLATION", message });
  });
});

describe("validation messages say what is allowed, one per field, under its JSON pointer", () => {
  test("a wrong enum value names the allowed values", async () => {
    const response = await call(marketplace.app, "POST", "/api/checkout/calculate", {
      body: { items: [{ product_id: "p", variant: "weekly" }], payment_gateway: "paypal" },
    });
    expect(errorsOf(response)).toEqual([
      {
        path: "/items/0/variant",
        code: "SCHEMA_VIOLATION",
        message: "must be one of regular, extended, monthly, yearly",
      },
      { path: "/payment_gateway", code: "SCHEMA_VIOLATION", message: "must be one of gateway_a, gateway_b" },
    ]);
  });

  test.each(["1000", "0", "abc", "2.5", ""])(
    "limit=%s is refused under /limit with the allowed range",
    async (limit) => {
      const response = await call(marketplace.app, "GET", `/api/admin/orders?limit=${limit}`, { token: admin });
      expectProblemShape(response, 422, "VALIDATION_FAILED");
      expect(errorsOf(response)).toEqual([
        { path: "/limit", code: "SCHEMA_VIOLATION", message: "must be an integer from 1 to 100" },
      ]);
    },
  );

  test("limit in range is read as a number", async () => {
    const response = await call(marketplace.app, "GET", "/api/orders?limit=7", { token: customer });
    expect(response.status).toBe(200);
  });

  test("a missing field is required, once, not also of the wrong type", async () => {
    const response = await call(marketplace.app, "POST", "/api/auth/login", { body: { email: "a@b.co" } });
    expect(errorsOf(response)).toEqual([{ path: "/password", code: "SCHEMA_VIOLATION", message: "is required" }]);
  });

  test("a body with thousands of wrong fields is answered with a bounded list", async () => {
    const items = Array.from({ length: 900 }, () => ({ product_id: 1, variant: 2, quantity: "x" }));
    const response = await call(marketplace.app, "POST", "/api/checkout/calculate", { body: { items } });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    const errors = errorsOf(response);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(20);
    expect(new Set(errors.map((error) => error.path)).size).toBe(errors.length);
  });
});
