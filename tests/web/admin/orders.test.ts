import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../../support/e2e.ts";
import { atSandbox, simControl } from "../../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
let admin: Account;
let token: string;

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
  token = await adminToken(e2e);
}, 30_000);

const orderLink = (page: Page, orderId: string) => page.getByRole("link", { name: `Order ${orderId.slice(0, 8)}` });

async function adminOrder(orderId: string) {
  const found = await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token });
  expect(found.status).toBe(200);
  return found.body as {
    status: string;
    needs_attention: boolean;
    refunds: { amount: number }[];
    payments: { amount: number }[];
  };
}

/** A license bought and delivered through `gateway`: $49.00 paid. */
async function aPaidOrder(gateway: "gateway_a" | "gateway_b") {
  const product = await createProduct(e2e, aLicenseProduct());
  const customer = await registerCustomer(e2e);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], gateway);
  await fulfillmentReaches(db, orderId, "active", 8000);
  return orderId;
}

/** The customer's bank disputes the payment at gateway B, which puts the order before a person. */
async function aDisputedOrder() {
  const orderId = await aPaidOrder("gateway_b");
  const [payment] = await db.current.sql<{ payment_id: string }[]>`
    select payment_id from payments where order_id = ${orderId}`;
  const intent = await atSandbox(e2e, "gateway_b", `/v1/payment_intents/${payment?.payment_id}`);
  await simControl(e2e, `/__sim/gateway_b/charges/${intent.latest_charge}/dispute`);
  await eventually(async () => (await adminOrder(orderId)).needs_attention, 8000, "the order to need attention");
  return orderId;
}

describe.skipIf(!hasChromium)("the Orders pages", () => {
  test("Needs attention keeps only the disputed order, whose page approves it", async () => {
    const paid = await aPaidOrder("gateway_a");
    const disputed = await aDisputedOrder();

    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/orders");
    await orderLink(page, paid).waitFor();
    await orderLink(page, disputed).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Needs attention").check();
    await orderLink(page, paid).waitFor({ state: "detached" });
    const row = page.getByRole("row").filter({ has: orderLink(page, disputed) });
    await row.waitFor();
    expect(await row.textContent()).toContain("Needs attention: dispute");
    expect(await seriousViolations(page)).toEqual([]);

    await orderLink(page, disputed).click();
    await page.waitForURL(`${e2e.url}/admin/orders/${disputed}`);
    const attention = page.getByRole("region", { name: "Needs attention" });
    await attention.waitFor();
    expect(await attention.textContent()).toContain("dispute");
    await page.getByRole("region", { name: "Disputes" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await attention.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Approved; the order is now disputed.").waitFor();
    await attention.waitFor({ state: "detached" });
    expect((await adminOrder(disputed)).needs_attention).toBeFalse();
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a plan change shows on the order's page: the item's plan now, and the proration among the payments", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    await fulfillmentReaches(db, orderId, "active", 8000);
    const [subscription] = await db.current.sql<
      { id: string }[]
    >`select id from subscriptions where order_id = ${orderId}`;
    const changed = await http(e2e.url, "POST", `/api/subscriptions/${subscription?.id}/change-plan`, {
      token: customer.token,
      body: { variant: "yearly" },
    });
    expect(changed.status).toBe(200);
    await eventually(
      async () =>
        (await db.current.sql`select 1 from payments where order_id = ${orderId} and kind = 'proration'`).length === 1,
      8000,
      "the proration payment",
    );
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, `/orders/${orderId}`);
    const items = page.getByRole("region", { name: "Items" });
    await items.getByText("now yearly").waitFor();
    const payments = page.getByRole("region", { name: "Payments" });
    const kinds = await payments
      .getByRole("row")
      .evaluateAll((rows) => rows.slice(1).map((row) => row.querySelectorAll("td")[1]?.textContent));
    expect(kinds).toEqual(["initial", "proration"]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a part of a paid order is refunded from its page, and shows in its refunds", async () => {
    const orderId = await aPaidOrder("gateway_a");
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, `/orders/${orderId}`);
    await page.getByRole("region", { name: "Items" }).waitFor();
    expect(await page.getByRole("region", { name: "Payments" }).textContent()).toContain("$49.00");
    await page.getByText("No refunds.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const amount = page.getByLabel("Amount to refund, in USD (such as 12.50, not in cents)");
    await amount.fill("60");
    await page.getByRole("button", { name: "Refund" }).click();
    await page.getByText("Refund between $0.01 and $49.00.").first().waitFor();
    expect((await adminOrder(orderId)).refunds).toEqual([]);

    await amount.fill("10.50");
    const asked = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await page.getByRole("button", { name: "Refund" }).click();
    expect(await asked).toContain("Refund $10.50 of payment");
    await page.getByText("Refund made; the order is now partially refunded.").waitFor();
    const refunds = page.getByRole("region", { name: "Refunds" });
    await refunds.waitFor();
    expect(await refunds.getByRole("cell").nth(2).textContent()).toBe("$10.50");
    expect(await page.locator("#order-status").textContent()).toBe("Partially refunded");
    expect(await page.getByText("$38.50 left to refund.").count()).toBe(1);
    const after = await adminOrder(orderId);
    expect(after.status).toBe("partially_refunded");
    expect(after.refunds.map((refund) => refund.amount)).toEqual([1050]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
  test("an order placed with a discount code shows the code, what it took off and each payment's discount", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const code = `PAGE${crypto.randomUUID().slice(0, 6)}`;
    const made = await http(e2e.url, "POST", "/api/admin/discounts", {
      token,
      body: { code, type: "fixed", amount: 900, duration: "once" },
    });
    expect(made.status).toBe(201);
    const customer = await registerCustomer(e2e);
    const opened = await http(e2e.url, "POST", "/api/checkout/create", {
      token: customer.token,
      body: {
        items: [{ product_id: product.id, variant: "regular" }],
        payment_gateway: "gateway_b",
        discount_code: code,
      },
    });
    expect(opened.status).toBe(201);
    await fetch(`${e2e.sim.url}/checkout/gateway_b/${opened.body.checkout.session_id}/pay`, { method: "POST" });
    const orderId = opened.body.order_id as string;
    await eventually(async () => (await adminOrder(orderId)).payments.length === 1, 8000, "the payment");
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, `/orders/${orderId}`);
    const discount = page.locator("#order-discount");
    await discount.waitFor();
    expect(await discount.textContent()).toBe(`${code}: $9.00 off $49.00`);
    const row = page.getByRole("region", { name: "Payments" }).getByRole("row").nth(1);
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(2, 4)).toEqual(["$40.00", "$9.00"]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
