import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type Browser, hasChromium, openBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { type Account, anAdminAccount, screenshot, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { adminToken, createProduct, http, posProductFor, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

let browser: Browser | undefined;
let admin: Account;
let token = "";

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
  token = await adminToken(e2e);
  if (hasChromium) browser = await openBrowser();
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

const configInput = (page: Page, key: string) => page.getByLabel(new RegExp(`^${key}(\\s*\\*)?$`)).first();
const section = (page: Page, name: string) => page.getByRole("region", { name });
const statusBeside = (page: Page, button: string) =>
  page.getByRole("button", { name: button }).locator("xpath=following-sibling::*[@role='status']");
const refusedLoad = (path: string) =>
  `console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) (${e2e.url}${path})`;

async function openProduct(id: string, viewport = { width: 1280, height: 900 }) {
  const page = await (browser as Browser).context.newPage();
  const watched = watchPage(page);
  await page.setViewportSize(viewport);
  await signIn(page, e2e.url, "admin", admin, `/products/${id}`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  return { page, watched };
}

describe.skipIf(!hasChromium)("an admin product's page", () => {
  test("test connection reaches the simulator and says so; a missing secret is said in words", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id);
    expect(await configInput(page, "base_url").inputValue()).toBe(e2e.sim.url);
    expect(await configInput(page, "credentials_ref").inputValue()).toBe("sim_token");
    await page.getByRole("button", { name: "Test connection" }).click();
    await statusBeside(page, "Test connection")
      .filter({ hasText: /^Connected \(\d+ ms\)$/ })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "admin-product-editor");

    await configInput(page, "credentials_ref").fill("no_such_secret");
    await page.getByRole("button", { name: "Test connection" }).click();
    const product = await http(e2e.url, "GET", `/api/admin/products/${id}`, { token });
    const report = await http(e2e.url, "POST", "/api/admin/fulfillment/test-connection", {
      token,
      body: {
        fulfillment_driver: "multitenant_saas",
        fulfillment_config: { ...product.body.fulfillment_config, credentials_ref: "no_such_secret" },
      },
    });
    expect(report.body).toMatchObject({ ok: false, reason: "not_configured" });
    await statusBeside(page, "Test connection")
      .filter({ hasText: `Not connected: not configured. ${report.body.message}` })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("preview checkout shows every variant with its price, currency, gateways and trial", async () => {
    const { id } = await createProduct(
      e2e,
      posProductFor(e2e, { supports_trial: true, trial_days: 14, default_payment_gateway: "gateway_b" }),
    );
    const { page, watched } = await openProduct(id);
    await page.getByRole("button", { name: "Preview checkout" }).click();
    const table = section(page, "Checkout preview").getByRole("region", { name: "Variants at checkout" });
    await table.waitFor();
    const preview = (await http(e2e.url, "GET", `/api/admin/products/${id}/checkout-preview`, { token })).body;
    expect(preview.checkout_options.variants.map((v: { variant: string }) => v.variant)).toEqual(["monthly", "yearly"]);
    const rows = table.getByRole("row");
    expect(await rows.count()).toBe(1 + preview.checkout_options.variants.length);
    for (const variant of preview.checkout_options.variants) {
      const cells = await rows
        .filter({ hasText: new RegExp(`^${variant.variant}`) })
        .getByRole("cell")
        .allTextContents();
      expect(cells).toEqual([
        `subscription, billed ${variant.billing_interval}`,
        expect.stringContaining((variant.price / 100).toFixed(2)),
        variant.currency,
        "Gateway A, Gateway B (default)",
        "14-day free trial",
      ]);
    }
    await statusBeside(page, "Preview checkout").filter({ hasText: "Customers can buy it as shown below." }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("a one-time product's preview names its licenses, one gateway and no trial; a draft is not for sale", async () => {
    const { id } = await createProduct(
      e2e,
      aLicenseProduct({
        status: "draft",
        enabled_payment_gateways: ["gateway_a"],
        default_payment_gateway: "gateway_a",
      }),
    );
    const { page, watched } = await openProduct(id);
    await page.getByRole("button", { name: "Preview checkout" }).click();
    await statusBeside(page, "Preview checkout")
      .filter({ hasText: "Customers cannot buy it yet: it is draft." })
      .waitFor();
    const regular = section(page, "Checkout preview")
      .getByRole("region", { name: "Variants at checkout" })
      .getByRole("row")
      .filter({ hasText: /^regular/ });
    expect(await regular.getByRole("cell").allTextContents()).toEqual([
      "one time, regular license",
      expect.stringContaining("49.00"),
      "USD",
      "Gateway A (default)",
      "No trial",
    ]);
    expect(await page.getByRole("region", { name: "Provider" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Test connection" }).count()).toBe(0);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("pricing mappings are edited in a table and saved in one call; a wrong row saves nothing", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id);
    const mappings = section(page, "Pricing mappings");
    await mappings.getByText("No pricing mappings: the base prices apply.").waitFor();
    await mappings.getByRole("button", { name: "Add mapping" }).click();
    await mappings.getByRole("button", { name: "Add mapping" }).click();
    await mappings.getByLabel("Billing interval of mapping 1").selectOption("yearly");
    await mappings.getByLabel("Price of mapping 1, in minor units").fill("29000");
    await mappings.getByLabel("Payment type of mapping 2").selectOption("one_time");
    await mappings.getByLabel("Price of mapping 2, in minor units").fill("9900");
    await mappings.getByRole("button", { name: "Save mappings" }).click();

    await mappings.getByRole("alert").filter({ hasText: "Nothing was saved." }).waitFor();
    const typeError = await mappings
      .getByLabel("Payment type of mapping 2")
      .evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent);
    expect(typeError).toContain("must be subscription");
    expect(await seriousViolations(page)).toEqual([]);
    expect((await http(e2e.url, "GET", `/api/admin/products/${id}/pricing-mappings`, { token })).body.items).toEqual(
      [],
    );

    await mappings.getByRole("button", { name: "Remove mapping 2" }).click();
    await mappings.getByRole("button", { name: "Save mappings" }).click();
    await mappings.getByRole("status").filter({ hasText: "Saved 1 mapping." }).waitFor();
    const saved = await http(e2e.url, "GET", `/api/admin/products/${id}/pricing-mappings`, { token });
    expect(saved.body.items).toMatchObject([
      { payment_type: "subscription", billing_interval: "yearly", price: 29000, is_active: true },
    ]);

    await page.getByRole("button", { name: "Preview checkout" }).click();
    const yearly = section(page, "Checkout preview")
      .getByRole("row")
      .filter({ hasText: /^yearly/ });
    expect(await yearly.getByRole("cell").nth(1).textContent()).toContain("290.00");
    expect(watched.errorsOn(e2e.url)).toEqual([refusedLoad("/api/admin/products/pricing-mappings/bulk")]);
    await page.close();
  }, 30_000);

  test("gateway A create and sync say what they did, price by price", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id);
    const gateway = section(page, "Gateway A");
    await gateway.getByRole("button", { name: "Create on gateway A" }).click();
    await statusBeside(page, "Create on gateway A")
      .filter({ hasText: /^Gateway A product \S+ created in sandbox\.$/ })
      .waitFor();
    await gateway.getByRole("button", { name: "Sync prices to gateway A" }).click();
    await statusBeside(page, "Sync prices to gateway A")
      .filter({ hasText: /unchanged in sandbox\.$/ })
      .waitFor();
    const monthly = gateway.getByRole("row").filter({ hasText: /^monthly/ });
    const cells = await monthly.getByRole("cell").allTextContents();
    expect(cells[1]).toContain("31.00");
    expect(cells[3]).toBe("base price");
    const regular = await gateway
      .getByRole("row")
      .filter({ hasText: /^regular/ })
      .getByRole("cell")
      .allTextContents();
    expect(regular[0]).toBe("not for sale");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("with management enabled the provider's overview, tenants and plans are shown", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const plans = (await http(e2e.url, "GET", `/api/admin/products/${id}/provider/plans`, { token })).body;
    const { page, watched } = await openProduct(id);
    const provider = section(page, "Provider");
    const table = provider.getByRole("region", { name: "Provider plans" });
    await table.waitFor();
    for (const plan of plans.items) {
      const cells = await table.getByRole("row").filter({ hasText: plan.name }).getByRole("cell").allTextContents();
      expect(cells).toEqual([plan.id, plan.name, plan.billing_intervals.join(", ")]);
    }
    const overview = provider.getByRole("region", { name: "Provider overview" });
    const headers = await overview.getByRole("columnheader").allTextContents();
    const values = await overview.getByRole("cell").allTextContents();
    expect(values[headers.indexOf("Plans")]).toBe(String(plans.items.length));
    expect(values[headers.indexOf("Tenants")]).toMatch(/^\d+$/);
    await provider
      .getByText("The provider has no tenants yet.")
      .or(provider.getByRole("region", { name: "Provider tenants" }))
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("at 375 px wide nothing is wider than the screen", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id, { width: 375, height: 740 });
    await page.getByRole("button", { name: "Preview checkout" }).click();
    await section(page, "Checkout preview").getByRole("region").waitFor();
    await section(page, "Provider").getByRole("region", { name: "Provider plans" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);
});
