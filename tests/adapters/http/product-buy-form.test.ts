import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aPointOfSaleProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call } from "../../support/http.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];
const server = setupServer(...checkoutHandlers(calls));
const BASE = "https://shop.example";
let marketplace: ReturnType<typeof createTestMarketplace>;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV, PUBLIC_BASE_URL: BASE } });
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

async function aProduct() {
  const created = await call(marketplace.app, "POST", "/api/admin/products", {
    token: await tokenFor("admin"),
    body: aPointOfSaleProduct({ enabled_payment_gateways: ["gateway_a", "gateway_b"] }),
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; slug: string };
}

/** The form as a browser posts it. */
const submit = (slug: string, fields: Record<string, string>, accept = "text/html,*/*;q=0.8") =>
  marketplace.app.handle(
    new Request(`http://localhost/products/${slug}/buy`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept },
      body: new URLSearchParams(fields).toString(),
    }),
  );

describe("the product page's buy form", () => {
  test("offers each variant with its price, each gateway, and asks for an address", async () => {
    const { slug } = await aProduct();
    const html = await (
      await marketplace.app.handle(
        new Request(`http://localhost/products/${slug}`, { headers: { accept: "text/html" } }),
      )
    ).text();
    const form = /<form method="post" action="\/products\/[^"]+\/buy"[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
    expect(form).toContain('<option value="monthly"');
    expect(form).toContain('<option value="gateway_a"');
    expect(form).toContain('<option value="gateway_b"');
    expect(form).toContain('<input type="email" name="email"');
  });

  test("a posted form opens the chosen gateway's checkout as a guest and moves the browser on to it", async () => {
    const { slug } = await aProduct();
    const email = `buyer-${crypto.randomUUID()}@example.com`;
    calls.length = 0;
    const response = await submit(slug, { variant: "monthly", payment_gateway: "gateway_b", email, name: "Grace" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    const target = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(html)?.[1];
    expect(target).toStartWith("https://checkout.stripe.test/");
    const sent = new URLSearchParams(calls.find((c) => c.path === "/v1/checkout/sessions")?.body ?? "");
    expect(sent.get("customer_email")).toBe(email);
    expect(sent.get("success_url")).toMatch(
      new RegExp(`^${BASE}/orders/[0-9a-f-]+\\?checkout=success&access=[0-9a-f]{64}$`),
    );
    const [owner] = await db.current.sql<{ guest: boolean }[]>`
      select u.guest from orders o join users u on u.id = o.customer_id where lower(u.email) = ${email}`;
    expect(owner?.guest).toBe(true);
  });

  test("a refusal shows the form again with the error by its field and what was typed, markup kept as text", async () => {
    const { slug } = await aProduct();
    calls.length = 0;
    const response = await submit(slug, { variant: "monthly", email: 'not-an-address"><script>', name: "Grace" });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain('id="email-error"');
    expect(html).toContain('value="not-an-address&#34;&#62;&#60;script&#62;"');
    expect(html).not.toContain("<script>");
    expect(calls).toEqual([]);
    // Any other client gets the problem document.
    const api = await submit(slug, { variant: "monthly", email: "" }, "application/json");
    expect(api.status).toBe(422);
    expect(api.headers.get("content-type")).toContain("application/problem+json");
  });

  test("an unknown product is the 404 page", async () => {
    const response = await submit("no-such-product", { variant: "monthly", email: "a@example.com" });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Product not found");
  });
});
