import { describe, expect, test } from "bun:test";
import { http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { aProduct, BASE, failure, ok, paddleError, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });

const page = (products: unknown[], next: string | null) =>
  ok(products, { pagination: { per_page: 200, next, has_more: next !== null, estimated_total: 3 } });

describe("findProductByMarketplaceId", () => {
  test("follows the next link until the product turns up", async () => {
    const queries: string[] = [];
    server.use(
      http.get(`${BASE}/products`, ({ request }) => {
        const url = new URL(request.url);
        queries.push(url.search);
        if (url.searchParams.get("after") === "pro_02") {
          return page([aProduct({ id: "pro_03", custom_data: { marketplace_product_id: "mp_3" } })], null);
        }
        return page(
          [
            aProduct({ id: "pro_01", custom_data: null }),
            aProduct({ id: "pro_02", custom_data: { marketplace_product_id: "mp_2" } }),
          ],
          `${BASE}/products?after=pro_02&per_page=200&status=active`,
        );
      }),
    );
    expect(await gateway.findProductByMarketplaceId("mp_3")).toEqual({
      id: "pro_03",
      name: "POS Standard",
      marketplace_product_id: "mp_3",
    });
    expect(queries).toEqual(["?per_page=200&status=active", "?after=pro_02&per_page=200&status=active"]);
  });

  test("is undefined when no page has the product", async () => {
    server.use(http.get(`${BASE}/products`, () => page([aProduct()], null)));
    expect(await gateway.findProductByMarketplaceId("mp_unknown")).toBeUndefined();
  });

  test("stops after 50 pages rather than claim the product does not exist", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/products`, () => {
        calls++;
        return page([aProduct({ id: `pro_${calls}`, custom_data: null })], `${BASE}/products?after=pro_${calls}`);
      }),
    );
    expect(await failure(gateway.findProductByMarketplaceId("mp_1"))).toBeInstanceOf(UpstreamBadResponse);
    expect(calls).toBe(50);
  });

  test("never sends the key to a next link on another host", async () => {
    server.use(http.get(`${BASE}/products`, () => page([], "https://elsewhere.test/products?after=pro_01")));
    expect(await failure(gateway.findProductByMarketplaceId("mp_1"))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("a page without pagination is a bad response", async () => {
    server.use(http.get(`${BASE}/products`, () => ok([aProduct({ custom_data: null })])));
    expect(await failure(gateway.findProductByMarketplaceId("mp_1"))).toBeInstanceOf(UpstreamBadResponse);
  });
});

describe("getProduct and createProduct", () => {
  test("getProduct reads the product, and 404 is undefined", async () => {
    server.use(
      http.get(`${BASE}/products/pro_01`, () => ok(aProduct())),
      http.get(`${BASE}/products/pro_gone`, () => paddleError(404, "not_found")),
      http.get(`${BASE}/products/pro_locked`, () => paddleError(403, "forbidden")),
    );
    expect(await gateway.getProduct("pro_01")).toEqual({
      id: "pro_01",
      name: "POS Standard",
      marketplace_product_id: "mp_1",
    });
    expect(await gateway.getProduct("pro_gone")).toBeUndefined();
    expect(await failure(gateway.getProduct("pro_locked"))).toBeInstanceOf(UpstreamRejected);
  });

  test("createProduct posts the product with the marketplace id", async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/products`, async ({ request }) => {
        body = await request.json();
        return ok(aProduct({ id: "pro_new" }), {}, 201);
      }),
    );
    const product = await gateway.createProduct({
      marketplace_product_id: "mp_1",
      name: "POS Standard",
      description: "A till",
    });
    expect(product).toEqual({ id: "pro_new", name: "POS Standard", marketplace_product_id: "mp_1" });
    expect(body).toEqual({
      name: "POS Standard",
      tax_category: "standard",
      description: "A till",
      custom_data: { marketplace_product_id: "mp_1" },
    });
  });

  test("an empty description is left out", async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/products`, async ({ request }) => {
        body = await request.json();
        return ok(aProduct());
      }),
    );
    await gateway.createProduct({ marketplace_product_id: "mp_1", name: "POS Standard", description: "" });
    expect(body).not.toHaveProperty("description");
  });
});
