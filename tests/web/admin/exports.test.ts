import { beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { parseCsv } from "../../support/csv.ts";
import { useTestDatabase } from "../../support/database.ts";
import { createProduct, registerCustomer, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const browser = useBrowser();
let admin: Account;

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
  const customer = await registerCustomer(e2e);
  const product = await createProduct(e2e, aLicenseProduct());
  // Five paid orders, three through each gateway in turn, written straight into the tables.
  await db.current.sql`
    with o as (
      insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                          gateway_environment, metadata)
      select ${customer.id}, 'paid', 'USD', 4900, 4900, 4900,
             case when g % 2 = 0 then 'gateway_b' else 'gateway_a' end, 'sandbox', '{}'
      from generate_series(1, 5) g returning id
    )
    insert into order_items (order_id, position, product_id, product_name, variant, payment_type, unit_price,
                             quantity, amount, due_today, delivery_model, fulfillment_driver, options)
    select id, 0, ${product.id}, 'Books', 'regular', 'one_time', 4900, 1, 4900, 4900,
           'license_download', 'license_download', '{}' from o`;
}, 30_000);

describe.skipIf(!hasChromium)("downloading a list as CSV", () => {
  test("the Orders page saves the orders its filter shows as the CSV export", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/orders");
    await page.getByLabel("Gateway").selectOption("gateway_a");
    const saving = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV" }).click();
    const saved = await saving;
    expect(saved.suggestedFilename()).toMatch(/^orders-[0-9-]+\.csv$/);
    const [header, ...rows] = parseCsv(await Bun.file((await saved.path()) ?? "").text());
    const gateway = header?.indexOf("payment_gateway") ?? -1;
    const expected = await db.current.sql<{ id: string }[]>`
      select id from orders where payment_gateway = 'gateway_a'
      order by created_at desc, id desc`;
    expect(rows.map((row) => row[0])).toEqual(expected.map((order) => order.id));
    expect(rows.map((row) => row[gateway])).toEqual(["gateway_a", "gateway_a", "gateway_a"]);
    await page.getByText(/^Saved orders-[0-9-]+\.csv\.$/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("the Licenses page saves its filter's licenses, none here but the header", async () => {
    const page = await browser.newPage();
    await signIn(page, e2e.url, "admin", admin, "/licenses");
    await page.getByLabel("Status").selectOption("revoked");
    const saving = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV" }).click();
    const saved = await saving;
    expect(saved.suggestedFilename()).toMatch(/^licenses-[0-9-]+\.csv$/);
    const records = parseCsv(await Bun.file((await saved.path()) ?? "").text());
    expect(records).toHaveLength(1);
    expect(records[0]).toContain("key_hint");
    await page.close();
  }, 60_000);
});
