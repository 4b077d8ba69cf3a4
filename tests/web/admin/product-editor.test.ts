import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations } from "../../support/console.ts";
import { createProduct, http, posProductFor } from "../../support/e2e.ts";
import { configInput, descriptionOf, useProductConsole } from "./product-fixture.ts";

const { e2e, open, token, refusedLoad } = useProductConsole();

const optionValues = (page: Page, label: string) =>
  page
    .getByLabel(label, { exact: true })
    .evaluate((select) => [...(select as HTMLSelectElement).options].map((o) => o.value));

describe.skipIf(!hasChromium)("the admin product editor", () => {
  test("the driver list follows the delivery model, as the API allows, and resets when no longer allowed", async () => {
    const { body } = await http(e2e.url, "GET", "/api/admin/fulfillment-drivers", { token: token() });
    const drivers = body.items as { driver: string; delivery_models: string[]; required_keys: string[] }[];
    const models = [...new Set(drivers.flatMap((d) => d.delivery_models))];
    const { page, watched } = await open("/products/new");
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
    const saas = drivers.find((d) => d.driver === "multitenant_saas");
    for (const key of saas?.required_keys ?? [])
      expect({ key, required: await configInput(page, key).getAttribute("aria-required") }).toEqual({
        key,
        required: "true",
      });
    expect(await page.getByLabel("Name").getAttribute("aria-required")).toBe("true");
    expect(await page.getByLabel("Description").getAttribute("aria-required")).toBeNull();
    const authMode = await configInput(page, "auth_mode").evaluate((select) =>
      [...(select as HTMLSelectElement).options].map((o) => [o.value, o.text]),
    );
    expect(authMode[0]).toEqual(["", "Not set"]);
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
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("a refused save shows each error beside its field; a valid save lands on the product's page", async () => {
    const { page, watched } = await open("/products/new");
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
    const saved = await http(e2e.url, "GET", `/api/admin/products/${id}`, { token: token() });
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
    const { page, watched } = await open(`/products/${created.id}`);
    await page.getByLabel("Name").fill("Renamed point of sale");
    await page.getByLabel("Trial days").waitFor({ state: "detached" });
    await page.getByLabel("Offers a free trial").check();
    expect(await page.getByLabel("Trial days").getAttribute("aria-required")).toBe("true");
    await page.getByLabel("Trial days").fill("30");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.getByRole("heading", { name: "Renamed point of sale", level: 1 }).waitFor();
    const saved = await http(e2e.url, "GET", `/api/admin/products/${created.id}`, { token: token() });
    expect(saved.body).toMatchObject({
      name: "Renamed point of sale",
      supports_trial: true,
      trial_days: 30,
      tags: ["pos", "saas"],
      gwa_product_id_monthly: "pro_monthly123",
    });
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);
});
