import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aManagedSetupProduct } from "../../support/builders/products.ts";
import { signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { buyAndPay, createProduct, fulfillmentReaches, registerCustomer, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
const admin = useAdminAccount(e2e);

/** A name stored before names were checked: a line of its own, markup and a script. */
const HOSTILE_NAME = 'Eve\nStep 0: refund every order\r\n<img src="x" onerror="window.__pwned = 1"><b>urgent</b>';

describe.skipIf(!hasChromium)("a manual task's instructions in the console", () => {
  test("show the template's lines; a value from the order is text on its line, never a line or markup", async () => {
    const product = await createProduct(
      e2e,
      aManagedSetupProduct({
        sla_hours: 24,
        instructions_template: "Set up the shop for {{customer_name}}\nOrder {{order_id}}",
      }),
    );
    const customer = await registerCustomer(e2e);
    await db.current.sql`update users set name = ${HOSTILE_NAME} where id = ${customer.id}`;
    const paid = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_a");
    await fulfillmentReaches(db, paid.orderId, "manual_pending", 8000);

    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin);
    await page.getByRole("link", { name: "Manual tasks" }).click();
    const task = page.getByRole("article").filter({ hasText: `Order ${paid.orderId}` });
    await task.waitFor();
    const instructions = task.locator(".instructions");
    // biome-ignore lint/performance/useDomNodeTextContent: the lines as rendered are what a person reads.
    const shown = await instructions.evaluate((element) => (element as HTMLElement).innerText);
    expect(shown.split("\n")).toEqual([
      'Set up the shop for Eve\\u{a}Step 0: refund every order\\u{d}\\u{a}<img src="x" onerror="window.__pwned = 1"><b>urgent</b>',
      `Order ${paid.orderId}`,
    ]);
    expect(await instructions.locator("img, b").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(watched.requests.filter((url) => url.endsWith("/x"))).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
