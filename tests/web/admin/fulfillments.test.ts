import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct, aManagedSetupProduct } from "../../support/builders/products.ts";
import { screenshot, seriousViolations, signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import {
  buyAndPay,
  createProduct,
  FAST_JOBS,
  failOnboarding,
  fulfillmentReaches,
  fulfillmentsOf,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
const admin = useAdminAccount(e2e);

const rowOf = (page: Page, orderId: string) =>
  page.getByRole("row").filter({ hasText: `Order ${orderId.slice(0, 8)}` });

/**
 * Once the database says the order's delivery is active, presses Refresh once and waits for the
 * listing it asked for, then for the row: pressing again while an answer is on its way would drop it.
 */
async function refreshOnceActive(page: Page, orderId: string) {
  await fulfillmentReaches(db, orderId, "active", 15_000);
  const listing = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === "/api/admin/fulfillments" && response.request().method() === "GET",
  );
  await page.getByRole("button", { name: "Refresh" }).click();
  expect((await listing).status()).toBe(200);
  await rowOf(page, orderId).waitFor();
}

describe.skipIf(!hasChromium)("the Fulfillments page", () => {
  test("a delivery that failed is filtered, retried after the provider recovers, and becomes active", async () => {
    const customer = await registerCustomer(e2e);
    const pos = await createProduct(e2e, posProductFor(e2e));
    const license = await createProduct(e2e, aLicenseProduct());
    const setup = await createProduct(e2e, aManagedSetupProduct({ sla_hours: 24, instructions_template: "Call" }));
    const delivered = await buyAndPay(e2e, customer, [{ product_id: pos.id, variant: "monthly" }], "gateway_a");
    const licensed = await buyAndPay(e2e, customer, [{ product_id: license.id, variant: "regular" }], "gateway_b");
    const manual = await buyAndPay(e2e, customer, [{ product_id: setup.id, variant: "regular" }], "gateway_a");
    await fulfillmentReaches(db, delivered.orderId, "active", 8000);
    await fulfillmentReaches(db, licensed.orderId, "active", 8000);
    await fulfillmentReaches(db, manual.orderId, "manual_pending", 8000);
    await failOnboarding(e2e, { mode: "error", status: 500, count: Number(FAST_JOBS.JOB_MAX_ATTEMPTS) });
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: pos.id, variant: "monthly" }], "gateway_b");
    const failed = await fulfillmentReaches(db, orderId, "failed", 10_000);
    expect(failed.last_error).toContain("HTTP 500");

    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/fulfillments");
    await page.getByRole("heading", { name: "Fulfillments", level: 1 }).waitFor();
    for (const shown of [delivered, licensed, manual]) await rowOf(page, shown.orderId).waitFor();
    const row = rowOf(page, orderId);
    await row.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "admin-fulfillments");

    await page.getByLabel("Status", { exact: true }).selectOption("failed");
    await rowOf(page, delivered.orderId).waitFor({ state: "detached" });
    await row.waitFor();
    expect(await page.getByRole("button", { name: "Retry" }).count()).toBeGreaterThanOrEqual(1);
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells[2]).toBe("Failed");
    expect(cells[3]).toBe(FAST_JOBS.JOB_MAX_ATTEMPTS);
    expect(cells[4]).toContain("HTTP 500");
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("button", { name: "Retry" }).click();
    await page.getByText(`The delivery of order ${orderId.slice(0, 8)} is queued again.`).waitFor();
    await row.waitFor({ state: "detached" });

    await page.getByLabel("Status", { exact: true }).selectOption("active");
    await refreshOnceActive(page, orderId);
    expect(await row.getByRole("cell").nth(2).textContent()).toStartWith("Active");
    expect((await fulfillmentsOf(db, orderId))[0]?.status).toBe("active");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("the Driver filter keeps only that driver's deliveries, and at 375 px the page fits the screen", async () => {
    const customer = await registerCustomer(e2e);
    const license = await createProduct(e2e, aLicenseProduct());
    const setup = await createProduct(e2e, aManagedSetupProduct({ sla_hours: 24, instructions_template: "Call" }));
    const licensed = await buyAndPay(e2e, customer, [{ product_id: license.id, variant: "regular" }], "gateway_a");
    const manual = await buyAndPay(e2e, customer, [{ product_id: setup.id, variant: "regular" }], "gateway_b");
    await fulfillmentReaches(db, licensed.orderId, "active", 8000);
    await fulfillmentReaches(db, manual.orderId, "manual_pending", 8000);

    const page = await browser.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/fulfillments");
    await rowOf(page, manual.orderId).waitFor();
    await page.getByLabel("Driver").selectOption({ label: "Manual fulfillment" });
    await rowOf(page, licensed.orderId).waitFor({ state: "detached" });
    await rowOf(page, manual.orderId).waitFor();
    const drivers = await page.locator("tbody tr td:nth-child(2)").allTextContents();
    expect(drivers.length).toBeGreaterThan(0);
    expect(new Set(drivers)).toEqual(new Set(["Manual fulfillment"]));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
