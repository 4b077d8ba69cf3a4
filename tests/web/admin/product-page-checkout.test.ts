import { describe, expect, test } from "bun:test";
import { hasChromium } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { seriousViolations } from "../../support/console.ts";
import { createProduct, http, posProductFor } from "../../support/e2e.ts";
import { descriptionOf, section, statusBeside, useProductConsole } from "./product-fixture.ts";

const { e2e, openProduct, token, refusedLoad } = useProductConsole();

describe.skipIf(!hasChromium)("what an admin product's page says a customer is offered", () => {
  test("preview checkout shows every variant with its price, currency, gateways and trial", async () => {
    const { id } = await createProduct(
      e2e,
      posProductFor(e2e, { supports_trial: true, trial_days: 14, default_payment_gateway: "gateway_b" }),
    );
    const { page, watched } = await openProduct(id);
    await page.getByRole("button", { name: "Preview checkout" }).click();
    const table = section(page, "Checkout preview").getByRole("region", { name: "Variants at checkout" });
    await table.waitFor();
    const preview = (await http(e2e.url, "GET", `/api/admin/products/${id}/checkout-preview`, { token: token() })).body;
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
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("pricing mappings are edited in a table and saved in one call; a wrong row saves nothing", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id);
    const mappings = section(page, "Pricing mappings");
    const storedMappings = async () =>
      (await http(e2e.url, "GET", `/api/admin/products/${id}/pricing-mappings`, { token: token() })).body.items;
    const refusal = mappings.getByRole("alert").filter({ hasText: "Nothing was saved." });
    await mappings.getByText("No pricing mappings: the base prices apply.").waitFor();
    for (let i = 0; i < 3; i++) await mappings.getByRole("button", { name: "Add mapping" }).click();
    await mappings.getByLabel("Payment type of mapping 1").selectOption("one_time");
    await mappings.getByLabel("Price of mapping 1, in minor units").fill("9900");
    await mappings.getByLabel("Billing interval of mapping 2").selectOption("yearly");
    await mappings.getByLabel("Price of mapping 2, in minor units").fill("29000");
    await mappings.getByRole("button", { name: "Save mappings" }).click();

    await refusal.waitFor();
    const priceOf3 = mappings.getByLabel("Price of mapping 3, in minor units");
    expect(await descriptionOf(priceOf3)).toBe("The price is required");
    expect(watched.requests.filter((url) => url.endsWith("/pricing-mappings/bulk"))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await mappings.getByRole("button", { name: "Remove mapping 3" }).click();
    await refusal.waitFor({ state: "detached" });
    await mappings.getByRole("button", { name: "Save mappings" }).click();
    await refusal.waitFor();
    expect(await descriptionOf(mappings.getByLabel("Payment type of mapping 1"))).toContain("must be subscription");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await storedMappings()).toEqual([]);

    // The refusal named row 1; once it is removed, the row moving up to 1 must not wear its error.
    await mappings.getByRole("button", { name: "Remove mapping 1" }).click();
    await refusal.waitFor({ state: "detached" });
    expect(await mappings.getByLabel("Payment type of mapping 1").getAttribute("aria-describedby")).toBeNull();
    await mappings.getByRole("button", { name: "Save mappings" }).click();
    await mappings.getByRole("status").filter({ hasText: "Saved 1 mapping." }).waitFor();
    expect(await storedMappings()).toMatchObject([
      { payment_type: "subscription", billing_interval: "yearly", price: 29000, is_active: true },
    ]);

    await page.getByRole("button", { name: "Preview checkout" }).click();
    const yearly = section(page, "Checkout preview")
      .getByRole("row")
      .filter({ hasText: /^yearly/ });
    expect(await yearly.getByRole("cell").nth(1).textContent()).toContain("290.00");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([refusedLoad("/api/admin/products/pricing-mappings/bulk")]);
    await page.close();
  }, 60_000);
  test("with a discount code, the preview says what each variant costs with it, and why a code is refused", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e, { default_payment_gateway: "gateway_b" }));
    const code = `PREV${crypto.randomUUID().slice(0, 6)}`;
    const made = await http(e2e.url, "POST", "/api/admin/discounts", {
      token: token(),
      body: { code, type: "fixed", amount: 1000, duration: "repeating", duration_in_months: 3 },
    });
    expect(made.status).toBe(201);
    const { page, watched } = await openProduct(id);
    const preview = section(page, "Checkout preview");
    await preview.getByLabel("Discount code (optional)").fill(code.toLowerCase());
    await page.getByRole("button", { name: "Preview checkout" }).click();
    const monthly = preview.getByRole("row").filter({ hasText: /^monthly/ });
    await monthly.waitFor();
    expect(await monthly.getByRole("cell").last().textContent()).toBe(
      "$21.00 ($10.00 off), then $21.00 for 2 more, $31.00 after",
    );
    await preview.getByLabel("Discount code (optional)").fill("NOSUCHCODE");
    await page.getByRole("button", { name: "Preview checkout" }).click();
    await monthly.getByRole("cell").last().filter({ hasText: "The code is not a discount code." }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The refused code's 422 for each variant, which the browser reports as a failed load; nothing else.
    const refused = refusedLoad("/api/checkout/calculate");
    expect(watched.errorsOn(e2e.url)).toEqual([refused, refused]);
    await page.close();
  }, 60_000);
});
