import { beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const browser = useBrowser();
let admin: Account;

/** A license ($49.00) at gateway_a refunded $10.00, and a monthly subscription ($31.00) at gateway_b. */
beforeAll(async () => {
  admin = await anAdminAccount(e2e);
  const token = await adminToken(e2e);
  const customer = await registerCustomer(e2e);
  const license = await createProduct(e2e, aLicenseProduct({ name: "Home License" }));
  const service = await createProduct(e2e, posProductFor(e2e, { name: "Home Service" }));
  const bought = await buyAndPay(e2e, customer, [{ product_id: license.id, variant: "regular" }], "gateway_a");
  await buyAndPay(e2e, customer, [{ product_id: service.id, variant: "monthly" }], "gateway_b");
  await eventually(
    async () => (await http(e2e.url, "GET", `/api/admin/orders/${bought.orderId}`, { token })).body.status === "paid",
    5000,
    "the license paid",
  );
  const refund = await http(e2e.url, "POST", `/api/admin/orders/${bought.orderId}/refund`, {
    token,
    body: { amount: 1000 },
  });
  expect(refund.status).toBe(200);
  await eventually(
    async () => (await http(e2e.url, "GET", "/api/admin/reports/subscriptions", { token })).body.environments.length,
    5000,
    "the subscription recorded",
  );
}, 60_000);

describe.skipIf(!hasChromium)("the admin's home", () => {
  test("shows revenue from the ledger with an SVG chart and its table, and subscriptions with MRR", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin);
    await page.waitForURL(`${e2e.url}/admin/overview`);
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();

    const usd = page.getByRole("region", { name: "Revenue in USD (Sandbox)" });
    await usd.waitFor();
    const figure = async (name: string) =>
      usd.getByLabel("Totals in USD (Sandbox)").locator(`dt:text-is("${name}") + dd`).textContent();
    expect(await figure("Gross")).toBe("$80.00");
    expect(await figure("Refunds")).toBe("$10.00");
    expect(await figure("Charged back")).toBe("$0.00");
    expect(await figure("Net")).toBe("$70.00");

    const chart = usd.getByRole("img", { name: /Revenue per day, USD \(sandbox\)/ });
    await chart.waitFor();
    expect(await chart.evaluate((svg) => svg.tagName)).toBe("svg");
    expect(await chart.locator("desc").textContent()).toContain("$80.00 gross, $70.00 net");
    expect(await chart.locator("rect.bar-net").count()).toBe(30);
    const today = new Date().toISOString().slice(0, 10);
    const todayRow = usd.getByRole("region", { name: "USD (Sandbox) per interval" }).getByRole("row", { name: today });
    expect(await todayRow.getByRole("cell").allTextContents()).toEqual([
      "2",
      "$80.00",
      "$0.00",
      "$0.00",
      "$10.00",
      "$0.00",
      "$70.00",
    ]);
    const byProduct = usd.getByRole("region", { name: "USD (Sandbox) by product" });
    expect(await byProduct.getByRole("row", { name: "Home License" }).getByRole("cell").last().textContent()).toBe(
      "$39.00",
    );

    const subscriptions = page.getByRole("region", { name: "Subscriptions (Sandbox)" });
    expect(await subscriptions.locator('dt:text-is("Active") + dd').textContent()).toBe("1");
    expect(await subscriptions.locator('dt:text-is("MRR, USD") + dd').textContent()).toBe("$31.00");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Period").selectOption("month");
    await usd.getByRole("img", { name: /Revenue per month/ }).waitFor();
    expect(await usd.getByRole("img").locator("rect.bar-net").count()).toBe(12);
    // Narrow screens scroll the tables in their own boxes; the page itself is never wider.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    expect(watched.foreign(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
