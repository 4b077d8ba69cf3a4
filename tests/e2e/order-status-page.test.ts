import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, useBrowser, watchPage } from "../support/browser.ts";
import { aDedicatedInstallationProduct } from "../support/builders/products.ts";
import { seriousViolations } from "../support/console.ts";
import { useTestDatabase } from "../support/database.ts";
import { buyAndPay, createProduct, http, posProductFor, useE2e } from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const password = "customer password";
const browser = useBrowser();
let email = "";
let token = "";
let productId = "";

beforeAll(async () => {
  email = `page-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", { body: { email, password, name: "Page" } });
  token = registered.body.token;
  productId = (await createProduct(e2e, posProductFor(e2e))).id;
}, 30_000);

/** Opens a Stripe-style sandbox checkout for the point-of-sale product in `page`; returns the order id. */
async function openCheckout(page: Page): Promise<string> {
  const checkout = await http(e2e.url, "POST", "/api/checkout/create", {
    token,
    body: { items: [{ product_id: productId, variant: "monthly" }], payment_gateway: "gateway_b" },
  });
  expect(checkout.status).toBe(201);
  await page.goto(checkout.body.checkout.url);
  return checkout.body.order_id;
}

/** Signs in through the order page's own form, as the customer returning from checkout does. */
async function signInOnPage(page: Page) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const statusOf = (page: Page) => page.locator("#items tr .status");

describe.skipIf(!hasChromium)("the order status page in Chromium", () => {
  test("after paying, the customer lands on it, signs in and watches the item become active", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    const orderId = await openCheckout(page);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(`${e2e.url}/orders/${orderId}?checkout=success`);

    await signInOnPage(page);
    await statusOf(page)
      .filter({ hasText: /^active$/ })
      .waitFor({ timeout: 15_000 });
    await page.getByText("Up to date.").waitFor();
    expect(await page.locator("#order-status").textContent()).toBe("paid");
    expect(await page.getByRole("link", { name: /workspace/i }).getAttribute("href")).toContain("/workspaces/");
    const stored = await page.evaluate(() => sessionStorage.getItem("marketplace.customer_token"));
    expect(JSON.parse(stored ?? "null")).toMatchObject({
      token: expect.any(String),
      user: { email, role: "customer" },
    });
    expect(await page.getByRole("link", { name: "Your account" }).getAttribute("href")).toBe("/account");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    // The payment's invoice, asked of the gateway as it is opened.
    await page.locator("#payments tr").first().waitFor();
    await page.getByRole("button", { name: "Invoice" }).click();
    await page.waitForURL(/\/documents\/gateway_b\/(invoices|receipts)\//);
    expect(await page.locator("body").textContent()).toContain("Paid");
    await page.close();
  }, 40_000);

  test("a cancelled checkout lands on it too, unpaid, with the way back to paying and no refreshing", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    const orderId = await openCheckout(page);
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL(`${e2e.url}/orders/${orderId}?checkout=cancelled`);
    await signInOnPage(page);
    await page.getByText("Up to date.").waitFor({ timeout: 10_000 });
    expect(await page.locator("#banner").textContent()).toContain("cancelled");
    expect(await page.locator("#order-status").textContent()).toBe("pending payment");
    expect(await page.getByRole("link", { name: /pay/i }).getAttribute("href")).toContain("/checkout/gateway_b/");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 40_000);

  test("a next step whose address is no web link is shown as words, not linked", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await page.route("**/api/dashboard", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { items: { next_action: { url?: string } }[] };
      for (const item of body.items) item.next_action.url = "javascript:document.title='taken'";
      await route.fulfill({ response, json: body });
    });
    const orderId = await openCheckout(page);
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL(`${e2e.url}/orders/${orderId}?checkout=cancelled`);
    await signInOnPage(page);
    await page.getByText("Up to date.").waitFor({ timeout: 10_000 });
    const next = page.locator(`#items tr[data-item-id] td`).nth(2);
    expect(await next.textContent()).toMatch(/pay/i);
    expect(await next.getByRole("link").count()).toBe(0);
    expect(await page.locator("a[href^='javascript:' i]").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 40_000);

  test("a domain the API refuses is said beside the form, which can be used again; a good one moves the item on", async () => {
    const product = await createProduct(e2e, aDedicatedInstallationProduct());
    const { orderId } = await buyAndPay(e2e, { token }, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    const page = await browser.newPage();
    const watched = watchPage(page);
    await page.goto(`${e2e.url}/orders/${orderId}`);
    await signInOnPage(page);
    const domain = page.getByLabel("Domain");
    await domain.waitFor({ timeout: 15_000 });
    expect(await seriousViolations(page)).toEqual([]);

    await domain.fill("not a domain");
    await page.getByRole("button", { name: "Save" }).click();
    const dashboard = await http(e2e.url, "GET", "/api/dashboard", { token });
    const item = dashboard.body.items.find((i: { order_id: string }) => i.order_id === orderId);
    const refused = await http(e2e.url, "POST", item.next_action.url, { token, body: { domain: "not a domain" } });
    expect(refused.status).toBe(422);
    await page.getByRole("status").filter({ hasText: refused.body.detail }).waitFor();
    expect(await page.getByRole("button", { name: "Save" }).isEnabled()).toBe(true);

    await domain.fill("books.example.com");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByLabel("Domain").waitFor({ state: "detached", timeout: 15_000 });
    expect(watched.errorsOn(e2e.url).filter((line) => !line.includes("status of 422"))).toEqual([]);
    await page.close();
  }, 60_000);
});
