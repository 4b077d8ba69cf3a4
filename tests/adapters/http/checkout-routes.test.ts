import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import pino from "pino";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, GATEWAY_TEST_SECRETS, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];
const server = setupServer(...checkoutHandlers(calls));
const logLines: string[] = [];
const logger = pino({ level: "trace" }, { write: (line: string) => void logLines.push(line) });
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customer = "";
let customerId = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV, logger });
  admin = await tokenFor("admin");
  const registered = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: `buyer-${crypto.randomUUID()}@example.com`, password: "buyer password", name: "Buyer" },
  });
  customer = registered.body.token;
  customerId = registered.body.user.id;
});
afterEach(() => {
  calls.length = 0;
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

const app = () => marketplace.app;
async function product(input: object) {
  const created = await call(app(), "POST", "/api/admin/products", { token: admin, body: input });
  expect(created.status).toBe(201);
  return created.body as { id: string };
}
const checkout = (body: object, headers: Record<string, string> = {}) =>
  call(app(), "POST", "/api/checkout/create", { token: customer, body, headers });

describe("checkout", () => {
  test("calculate is public and deterministic", async () => {
    const pos = await product(aPointOfSaleProduct({ price_monthly: 2900 }));
    const body = { items: [{ product_id: pos.id, variant: "monthly", options: { workspace: "Corner Shop" } }] };
    const first = await call(app(), "POST", "/api/checkout/calculate", { body });
    const second = await call(app(), "POST", "/api/checkout/calculate", { body });
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).toBe(JSON.stringify(second.body));
    expect(first.body).toMatchObject({ total: 2900, due_today: 0, currency: "USD", payment_gateway: "gateway_b" });
  });

  test.each([
    ["gateway_a", "https://checkout.paddle.test/", "/transactions"],
    ["gateway_b", "https://checkout.stripe.test/", "/v1/checkout/sessions"],
  ])("checkout through %s returns that gateway's URL", async (gateway, urlPrefix, path) => {
    const license = await product(aLicenseProduct());
    const response = await checkout({
      items: [{ product_id: license.id, variant: "regular" }],
      payment_gateway: gateway,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ total: 4900, currency: "USD", payment_gateway: gateway });
    expect(response.body.checkout.url).toStartWith(urlPrefix);
    expect(calls.map((c) => c.path)).toEqual([path]);
    const [order] = await db.current
      .sql`select status, checkout_url, customer_id from orders where id = ${response.body.order_id}`;
    expect(order).toMatchObject({
      status: "pending_payment",
      checkout_url: response.body.checkout.url,
      customer_id: customerId,
    });
  });

  test("two identical requests store byte-identical metadata, keys sorted", async () => {
    const license = await product(aLicenseProduct());
    const body = {
      items: [
        { product_id: license.id, variant: "extended", quantity: 2, options: { seats_label: "HQ", b: true, a: 1 } },
      ],
      payment_gateway: "gateway_a",
    };
    const first = await checkout(body);
    const second = await checkout(body);
    const rows = await db.current.sql<{ metadata: string }[]>`
      select metadata from orders where id in (${first.body.order_id}, ${second.body.order_id})`;
    expect(rows).toHaveLength(2);
    expect(rows[0]?.metadata).toBe(rows[1]?.metadata ?? "");
    expect(rows[0]?.metadata).toBe(
      JSON.stringify({
        gateway_environment: "sandbox",
        items: [
          {
            delivery_model: "self_hosted_license",
            fulfillment_driver: "license_download",
            options: { a: 1, b: true, seats_label: "HQ" },
            product_id: license.id,
            quantity: 2,
            variant: "extended",
          },
        ],
        payment_gateway: "gateway_a",
      }),
    );
  });

  test("no gateway common to every item is a 422 and stores nothing", async () => {
    const onlyA = await product(
      aLicenseProduct({ enabled_payment_gateways: ["gateway_a"], default_payment_gateway: "gateway_a" }),
    );
    const onlyB = await product(
      aLicenseProduct({ enabled_payment_gateways: ["gateway_b"], default_payment_gateway: "gateway_b" }),
    );
    const response = await checkout({
      items: [
        { product_id: onlyA.id, variant: "regular" },
        { product_id: onlyB.id, variant: "regular" },
      ],
    });
    expectProblemShape(response, 422, "NO_COMMON_GATEWAY");
    expect(calls).toEqual([]);
  });

  test("without a token checkout needs an email; a bad token is refused, never taken for a guest", async () => {
    const license = await product(aLicenseProduct());
    const items = [{ product_id: license.id, variant: "regular" }];
    const anonymous = await call(app(), "POST", "/api/checkout/create", { body: { items } });
    expectProblemShape(anonymous, 422, "VALIDATION_FAILED");
    expect(anonymous.body.errors).toEqual([expect.objectContaining({ path: "/email", code: "EMAIL_REQUIRED" })]);
    const badToken = await call(app(), "POST", "/api/checkout/create", {
      token: "not.a.token",
      body: { items, email: "guest@example.com" },
    });
    expectProblemShape(badToken, 401, "AUTHENTICATION_REQUIRED");
    const signedInWithEmail = await checkout({ items, email: "someone@example.com" });
    expectProblemShape(signedInWithEmail, 422, "VALIDATION_FAILED");
    expect(signedInWithEmail.body.errors[0]).toMatchObject({ path: "/email", code: "GUEST_FIELD_WHEN_SIGNED_IN" });
    const badEmail = await call(app(), "POST", "/api/checkout/create", { body: { items, email: "a,b@example.com" } });
    expect(badEmail.body.errors[0]).toMatchObject({ path: "/email", code: "INVALID_EMAIL" });
    expect(calls).toEqual([]);
  });

  test("an outage at a named gateway is a 503 with the alternatives, the order is marked checkout_failed, and the key can be retried", async () => {
    const license = await product(aLicenseProduct());
    server.use(
      http.post(
        `${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/checkout/sessions`,
        () => new HttpResponse(null, { status: 503 }),
        { once: true },
      ),
    );
    const body = { items: [{ product_id: license.id, variant: "regular" }], payment_gateway: "gateway_b" };
    const failed = await checkout(body, { "idempotency-key": "retry-after-outage" });
    expectProblemShape(failed, 503, "GATEWAY_UNAVAILABLE");
    expect(failed.body).toMatchObject({ gateway: "gateway_b", alternatives: ["gateway_a"] });
    const [order] = await db.current
      .sql`select status from orders where customer_id = ${customerId} order by created_at desc limit 1`;
    expect(order?.status).toBe("checkout_failed");
    const retried = await checkout(body, { "idempotency-key": "retry-after-outage" });
    expect(retried.status).toBe(201);
  });
});

describe("Idempotency-Key", () => {
  test("the same key and body replay the stored response and create one order", async () => {
    const license = await product(aLicenseProduct());
    const body = { items: [{ product_id: license.id, variant: "regular" }] };
    const first = await checkout(body, { "idempotency-key": "order-1" });
    const replay = await checkout(body, { "idempotency-key": "order-1" });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(calls).toHaveLength(1);
  });

  test("the same key with another body is a 422", async () => {
    const license = await product(aLicenseProduct());
    await checkout({ items: [{ product_id: license.id, variant: "regular" }] }, { "idempotency-key": "order-2" });
    const other = await checkout(
      { items: [{ product_id: license.id, variant: "extended" }] },
      { "idempotency-key": "order-2" },
    );
    expectProblemShape(other, 422, "IDEMPOTENCY_KEY_REUSED");
  });

  test("a concurrent request with the same key is a 409", async () => {
    const license = await product(aLicenseProduct());
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(
        `${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/checkout/sessions`,
        async () => {
          await gate;
          return HttpResponse.json({
            id: "cs_slow",
            object: "checkout.session",
            url: "https://checkout.stripe.test/slow",
          });
        },
        { once: true },
      ),
    );
    const body = { items: [{ product_id: license.id, variant: "regular" }], payment_gateway: "gateway_b" };
    const slow = checkout(body, { "idempotency-key": "order-3" });
    await Bun.sleep(50);
    const concurrent = await checkout(body, { "idempotency-key": "order-3" });
    release();
    expectProblemShape(concurrent, 409, "IDEMPOTENT_REQUEST_IN_PROGRESS");
    expect((await slow).status).toBe(201);
  });
});

test("no secret value appears in any response or log line of a full checkout", async () => {
  logLines.length = 0;
  const seen: string[] = [];
  const pos = await product(aPointOfSaleProduct());
  const license = await product(aLicenseProduct());
  for (const gateway of ["gateway_a", "gateway_b"]) {
    const response = await checkout({
      items: [{ product_id: license.id, variant: "regular" }],
      payment_gateway: gateway,
    });
    seen.push(JSON.stringify(response.body));
  }
  seen.push(JSON.stringify((await call(app(), "GET", `/api/products`)).body));
  for (const gateway of ["gateway_a", "gateway_b"]) {
    seen.push(JSON.stringify((await call(app(), "GET", `/api/admin/${gateway}/settings`, { token: admin })).body));
    seen.push(JSON.stringify((await call(app(), "GET", `/api/admin/orders`, { token: admin })).body));
  }
  seen.push(JSON.stringify((await call(app(), "GET", `/api/admin/products/${pos.id}`, { token: admin })).body));
  const everything = [...seen, ...logLines].join("\n");
  expect(logLines.length).toBeGreaterThan(0);
  for (const secret of GATEWAY_TEST_SECRETS) expect(everything).not.toContain(secret);
  expect(calls.some((c) => c.authorization === `Bearer ${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_API_KEY}`)).toBeTrue();
});

describe("guest checkout", () => {
  const guestCheckout = (body: object, headers: Record<string, string> = {}) =>
    call(app(), "POST", "/api/checkout/create", { body, headers });
  const ownerOf = async (orderId: string) => {
    const [row] = await db.current.sql<{ customer_id: string; guest: boolean; email: string }[]>`
      select o.customer_id, u.guest, u.email from orders o join users u on u.id = o.customer_id where o.id = ${orderId}`;
    return row;
  };

  test("an order for a new address belongs to one guest record, which cannot sign in", async () => {
    const license = await product(aLicenseProduct());
    const email = `Guest-${crypto.randomUUID()}@Example.com`;
    const items = [{ product_id: license.id, variant: "regular" }];
    const first = await guestCheckout({ items, email, name: "Grace", payment_gateway: "gateway_b" });
    const second = await guestCheckout({ items, email: email.toLowerCase() });
    expect([first.status, second.status]).toEqual([201, 201]);
    const owners = [await ownerOf(first.body.order_id), await ownerOf(second.body.order_id)];
    expect(owners[0]).toEqual({ customer_id: String(owners[1]?.customer_id), guest: true, email: email.toLowerCase() });
    const signIn = await call(app(), "POST", "/api/auth/login", { body: { email, password: "" } });
    expect(signIn.status).not.toBe(200);
    // The gateway returns the guest to the status page with the order's access, and the answer names it.
    const sent = new URLSearchParams(calls.find((c) => c.path === "/v1/checkout/sessions")?.body ?? "");
    const access = new URL(first.body.order_status_url).searchParams.get("access");
    expect(access).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.get("success_url")).toContain(`access=${access}`);
    expect(sent.get("customer_email")).toBe(email.toLowerCase());
  });

  test("an address whose account is verified gets the order in that account, with an answer shaped like any guest's", async () => {
    const license = await product(aLicenseProduct());
    const items = [{ product_id: license.id, variant: "regular" }];
    const verified = `verified-${crypto.randomUUID()}@example.com`;
    const registered = await call(app(), "POST", "/api/auth/register", {
      body: { email: verified, password: "a verified password", name: "Vera" },
    });
    await db.current.sql`update users set email_verified_at = now() where id = ${registered.body.user.id}`;
    const unverified = `unverified-${crypto.randomUUID()}@example.com`;
    const squatter = await call(app(), "POST", "/api/auth/register", {
      body: { email: unverified, password: "a squatter password", name: "Sam" },
    });
    const toAccount = await guestCheckout({ items, email: verified });
    const toGuest = await guestCheckout({ items, email: unverified });
    expect(await ownerOf(toAccount.body.order_id)).toMatchObject({
      customer_id: registered.body.user.id,
      guest: false,
    });
    // An account that never proved the address sees nothing a guest bought with it.
    expect(await ownerOf(toGuest.body.order_id)).toMatchObject({ guest: true });
    const squattersOrders = await call(app(), "GET", "/api/orders", { token: squatter.body.token });
    expect(squattersOrders.body.items).toEqual([]);
    expect(Object.keys(toAccount.body).sort()).toEqual(Object.keys(toGuest.body).sort());
    expect(JSON.stringify(toAccount.body)).not.toContain(registered.body.user.id);
    expect(JSON.stringify(toAccount.body)).not.toContain("Vera");
    const holders = await call(app(), "GET", "/api/orders", { token: registered.body.token });
    expect(holders.body.items.map((o: { id: string }) => o.id)).toEqual([toAccount.body.order_id]);
  });

  test("a guest's idempotency key replays the guest's checkout whole; another request under it is a 422", async () => {
    const license = await product(aLicenseProduct());
    const items = [{ product_id: license.id, variant: "regular" }];
    const email = `keyed-${crypto.randomUUID()}@example.com`;
    const key = { "idempotency-key": `guest-${crypto.randomUUID()}` };
    const first = await guestCheckout({ items, email }, key);
    const again = await guestCheckout({ items, email }, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(first.body.order_status_url).toContain("access=");
    const other = await guestCheckout({ items, email: `other-${email}` }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
    // Without a bearer token the key is all that tells one buyer from another: a short one is refused.
    const short = await guestCheckout({ items, email }, { "idempotency-key": "guest-1" });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe("IDEMPOTENCY_KEY_INVALID");
  });
});
