import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];
const server = setupServer(...checkoutHandlers(calls));
const BURST = 3;
let marketplace: ReturnType<typeof createTestMarketplace>;
let productId = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  // Behind a trusted proxy, so each request names its client address in X-Forwarded-For.
  const env = {
    ...GATEWAY_TEST_ENV,
    TRUST_PROXY: "true",
    CHECKOUT_RATE_LIMIT_BURST: String(BURST),
    CHECKOUT_RATE_LIMIT_PER_SECOND: "1",
  };
  marketplace = createTestMarketplace(db.current.sql, {}, { env });
  const created = await call(marketplace.app, "POST", "/api/admin/products", {
    token: await tokenFor("admin"),
    body: aLicenseProduct(),
  });
  expect(created.status).toBe(201);
  productId = created.body.id;
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

async function aCustomer(): Promise<string> {
  const registered = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: `buyer-${crypto.randomUUID()}@example.com`, password: "buyer password", name: "Buyer" },
    headers: { "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });
  expect(registered.status).toBe(201);
  return registered.body.token;
}

const body = () => ({ items: [{ product_id: productId, variant: "regular" }], payment_gateway: "gateway_b" });
const create = (token: string, address: string) =>
  call(marketplace.app, "POST", "/api/checkout/create", {
    token,
    body: body(),
    headers: { "x-forwarded-for": address },
  });
const calculate = (address: string) =>
  call(marketplace.app, "POST", "/api/checkout/calculate", { body: body(), headers: { "x-forwarded-for": address } });

function expectLimited(response: Awaited<ReturnType<typeof call>>) {
  expectProblemShape(response, 429, "RATE_LIMITED");
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}

describe("checkout rate limits", () => {
  test("one customer is limited across addresses, and no session is opened past the limit", async () => {
    const token = await aCustomer();
    const sessionsBefore = calls.length;
    for (let i = 0; i < BURST; i++) expect((await create(token, `203.0.113.${i + 1}`)).status).toBe(201);
    const refused = await create(token, "203.0.113.99");
    expectLimited(refused);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(calls.length - sessionsBefore).toBe(BURST);
    // Another customer is not held back by the first one's limit.
    expect((await create(await aCustomer(), "203.0.113.100")).status).toBe(201);
  });

  test("one address is limited across customers", async () => {
    const address = "192.0.2.10";
    for (let i = 0; i < BURST; i++) expect((await create(await aCustomer(), address)).status).toBe(201);
    expectLimited(await create(await aCustomer(), address));
    expect((await create(await aCustomer(), "192.0.2.11")).status).toBe(201);
  });

  test("calculate is limited per address, in a bucket of its own", async () => {
    const address = "192.0.2.20";
    for (let i = 0; i < BURST; i++) expect((await calculate(address)).status).toBe(200);
    expectLimited(await calculate(address));
    expect((await calculate("192.0.2.21")).status).toBe(200);
    // Pricing a cart did not use up the address's checkouts.
    expect((await create(await aCustomer(), address)).status).toBe(201);
  });

  test("the OpenAPI document says both checkout routes may answer 429", async () => {
    const document = (await call(marketplace.app, "GET", "/openapi/json")).body;
    for (const path of ["/api/checkout/create", "/api/checkout/calculate"]) {
      expect(Object.keys(document.paths[path].post.responses)).toContain("429");
    }
  });
});

describe("the customer's bucket refills with time", () => {
  test("after Retry-After seconds the customer may open a checkout again", async () => {
    let now = 5_000_000;
    const { createCheckoutRoutes } = await import("../../../adapters/http/checkout-routes.ts");
    const opened: string[] = [];
    const routes = createCheckoutRoutes(
      {
        auth: marketplace.deps.auth,
        calculateCheckout: marketplace.deps.calculateCheckout,
        async createCheckout(buyer) {
          opened.push("customerId" in buyer ? buyer.customerId : buyer.guest.email);
          const session = { url: "https://checkout.stripe.test/c/pay/cs_1", session_id: "cs_1" };
          const id = crypto.randomUUID();
          const order = {
            order_id: id,
            total: 100,
            due_today: 100,
            discount_total: 0,
            discount: null,
            currency: "USD",
            failed_over: false,
            failed_over_from: null,
          };
          const body = { ...order, payment_gateway: "gateway_b" as const, checkout: session };
          return { ...body, order_status_url: `http://shop.test/orders/${id}` };
        },
        upgradeLicense: marketplace.deps.upgradeLicense,
      },
      { perCustomer: { burst: 1, perSecond: 1 }, now: () => now },
    );
    const token = await aCustomer();
    const open = () => call(routes, "POST", "/api/checkout/create", { token, body: body() });
    expect((await open()).status).toBe(201);
    const refused = await open();
    expect(refused.status).toBe(429);
    now += Number(refused.headers.get("retry-after")) * 1000;
    expect((await open()).status).toBe(201);
    expect(opened).toHaveLength(2);
  });
});
