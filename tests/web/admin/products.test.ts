import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type Browser, hasChromium, openBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
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

const newPage = () => (browser as Browser).context.newPage();

/** A driver's configuration input by its key; the first is the top-level one (`management` nests last). */
const configInput = (page: Page, key: string) => page.getByLabel(new RegExp(`^${key}(\\s*\\*)?$`)).first();

/** The texts an input is described by: its help text and the API's error for it. */
const descriptionOf = (input: ReturnType<Page["getByLabel"]>) =>
  input.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" | "),
  );

/**
 * What Chromium itself logs for a response the test made the API refuse: its network log, not a
 * script error. Any other console error still fails the test.
 */
const refusedLoad = (path: string, status = "422 (Unprocessable Entity)") =>
  `console error: Failed to load resource: the server responded with a status of ${status} (${e2e.url}${path})`;

const optionValues = (page: Page, label: string) =>
  page
    .getByLabel(label, { exact: true })
    .evaluate((select) => [...(select as HTMLSelectElement).options].map((o) => o.value));

describe.skipIf(!hasChromium)("the admin products pages", () => {
  test("the list shows every product with a link to its page, and a link to a new one", async () => {
    const saas = await createProduct(e2e, posProductFor(e2e));
    const license = await createProduct(e2e, aLicenseProduct({ status: "draft" }));
    const names = await Promise.all(
      [saas, license].map(
        async (p) => (await http(e2e.url, "GET", `/api/admin/products/${p.id}`, { token })).body.name,
      ),
    );
    const page = await newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/products");
    await page.getByRole("heading", { name: "Products" }).waitFor();
    const table = page.getByRole("region", { name: "Products" });
    for (const name of names) await table.getByRole("link", { name }).waitFor();
    expect(await table.getByRole("row").filter({ hasText: names[1] }).textContent()).toContain("draft");
    expect(await seriousViolations(page)).toEqual([]);

    await table.getByRole("link", { name: names[0] }).click();
    await page.waitForURL(`${e2e.url}/admin/products/${saas.id}`);
    await page.getByRole("heading", { name: names[0], level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole("link", { name: "New product" }).click();
    await page.waitForURL(`${e2e.url}/admin/products/new`);
    await page.getByRole("heading", { name: "New product" }).waitFor();
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("the driver list follows the delivery model, as the API allows, and resets when no longer allowed", async () => {
    const { body } = await http(e2e.url, "GET", "/api/admin/fulfillment-drivers", { token });
    const drivers = body.items as { driver: string; delivery_models: string[]; required_keys: string[] }[];
    const models = [...new Set(drivers.flatMap((d) => d.delivery_models))];
    const page = await newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/products/new");
    await page.getByLabel("Fulfillment driver").waitFor();
    expect((await optionValues(page, "Delivery model")).sort()).toEqual([...models].sort());

    for (const model of models) {
      await page.getByLabel("Delivery model").selectOption(model);
      const allowed = drivers.filter((d) => d.delivery_models.includes(model)).map((d) => d.driver);
      expect({ model, offered: await optionValues(page, "Fulfillment driver") }).toEqual({ model, offered: allowed });
      const chosen = await page.getByLabel("Fulfillment driver").inputValue();
      expect(allowed).toContain(chosen);
      const keys = drivers.find((d) => d.driver === chosen)?.required_keys ?? [];
      for (const key of keys) await configInput(page, key).waitFor();
    }

    await page.getByLabel("Delivery model").selectOption("saas_multitenant");
    await page.getByLabel("Fulfillment driver").selectOption("multitenant_saas");
    await page.getByRole("group", { name: "management" }).waitFor();
    expect(await descriptionOf(configInput(page, "timeout_seconds"))).toContain("Time-out of provider calls.");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Delivery model").selectOption("self_hosted_license");
    expect(await page.getByLabel("Fulfillment driver").inputValue()).not.toBe("multitenant_saas");
    await page.getByLabel("Fulfillment driver").selectOption("license_download");
    await configInput(page, "artifact_source").waitFor();
    expect(await configInput(page, "artifact_source").getAttribute("type")).toBe("url");
    expect(await configInput(page, "max_activations").getAttribute("type")).toBe("number");
    expect(await page.getByRole("group", { name: "management" }).count()).toBe(0);
    // Keeping the driver when the new model allows it too.
    await page.getByLabel("Delivery model").selectOption("hybrid");
    expect(await page.getByLabel("Fulfillment driver").inputValue()).toBe("license_download");
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("a refused save shows each error beside its field; a valid save lands on the product's page", async () => {
    const page = await newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/products/new");
    const slug = `console-pos-${crypto.randomUUID().slice(0, 8)}`;
    await page.getByLabel("Delivery model").selectOption("saas_multitenant");
    await page.getByLabel("Name").fill("Console point of sale");
    await page.getByLabel("Slug").fill(slug);
    await configInput(page, "base_url").fill("not a url");
    await page.getByRole("button", { name: "Save" }).click();

    await page.getByRole("alert").filter({ hasText: "Not saved." }).waitFor();
    expect(await descriptionOf(configInput(page, "base_url"))).toContain(
      "base_url must be an absolute http(s) URL without credentials",
    );
    expect(await descriptionOf(configInput(page, "onboard_endpoint"))).toContain("onboard_endpoint is required");
    expect(await descriptionOf(page.getByLabel("External provider"))).toContain("is required for multitenant_saas");
    expect(await page.getByLabel("Recurring (sold as a subscription)").getAttribute("aria-invalid")).toBe("true");
    expect(await configInput(page, "base_url").getAttribute("aria-invalid")).toBe("true");
    expect(page.url()).toBe(`${e2e.url}/admin/products/new`);
    // Keyboard users land on the first refused field rather than back at the Save button.
    expect(await page.getByLabel("External provider").evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await configInput(page, "base_url").fill("https://provider.example.com");
    await configInput(page, "onboard_endpoint").fill("/api/marketplace/onboard");
    await configInput(page, "status_endpoint").fill("/api/marketplace/status/{external_reference}");
    await configInput(page, "auth_mode").selectOption("bearer");
    await configInput(page, "credentials_ref").fill("pos_provider_token");
    await configInput(page, "timeout_seconds").fill("30");
    await page.getByLabel("External provider").fill("tillpoint");
    await page.getByLabel("External product reference").fill("pos-standard");
    await page.getByLabel("Recurring (sold as a subscription)").check();
    await page.getByLabel("Monthly price").fill("3100");
    await page.getByRole("button", { name: "Save" }).click();

    await page.waitForURL(/\/admin\/products\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Console point of sale", level: 1 }).waitFor();
    const id = page.url().split("/").pop() as string;
    const saved = await http(e2e.url, "GET", `/api/admin/products/${id}`, { token });
    expect(saved.body).toMatchObject({
      slug,
      delivery_model: "saas_multitenant",
      fulfillment_driver: "multitenant_saas",
      external_provider: "tillpoint",
      is_recurring: true,
      price_monthly: 3100,
      fulfillment_config: {
        base_url: "https://provider.example.com",
        auth_mode: "bearer",
        credentials_ref: "pos_provider_token",
        timeout_seconds: 30,
      },
    });
    expect(saved.body.fulfillment_config.management).toBeUndefined();
    expect(await configInput(page, "base_url").inputValue()).toBe("https://provider.example.com");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([refusedLoad("/api/admin/products")]);
    await page.close();
  }, 40_000);

  test("saving an existing product says so and keeps what the editor does not show", async () => {
    const created = await createProduct(e2e, posProductFor(e2e, { tags: ["pos", "saas"] }));
    const page = await newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, `/products/${created.id}`);
    await page.getByLabel("Name").fill("Renamed point of sale");
    await page.getByLabel("Trial days").waitFor({ state: "detached" });
    await page.getByLabel("Offers a free trial").check();
    await page.getByLabel("Trial days").fill("30");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.getByRole("heading", { name: "Renamed point of sale", level: 1 }).waitFor();
    const saved = await http(e2e.url, "GET", `/api/admin/products/${created.id}`, { token });
    expect(saved.body).toMatchObject({
      name: "Renamed point of sale",
      supports_trial: true,
      trial_days: 30,
      tags: ["pos", "saas"],
      gwa_product_id_monthly: "pro_monthly123",
    });
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);
});
