import { describe, expect, test } from "bun:test";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations, signIn } from "../../support/console.ts";
import { adminToken, eventually, http } from "../../support/e2e.ts";
import { useAccountFixture } from "./account-fixture.ts";

const { db, e2e, products, aCustomer, newPage } = useAccountFixture();

describe.skipIf(!hasChromium)("the Subscriptions page in Chromium", () => {
  test("a subscription bought with a discount code says what its renewals cost while the code lasts", async () => {
    const code = `SUBS${crypto.randomUUID().slice(0, 6)}`;
    const made = await http(e2e.url, "POST", "/api/admin/discounts", {
      token: await adminToken(e2e),
      body: { code, type: "fixed", amount: 1000, duration: "repeating", duration_in_months: 3 },
    });
    expect(made.status).toBe(201);
    const customer = await aCustomer();
    const opened = await http(e2e.url, "POST", "/api/checkout/create", {
      token: customer.token,
      body: {
        items: [{ product_id: products.pos.id, variant: "monthly" }],
        payment_gateway: "gateway_b",
        discount_code: code,
      },
    });
    expect(opened.status).toBe(201);
    await fetch(`${e2e.sim.url}/checkout/gateway_b/${opened.body.checkout.session_id}/pay`, { method: "POST" });
    await eventually(
      async () => (await db.current.sql`select 1 from subscriptions where order_id = ${opened.body.order_id}`).length,
      8000,
      "the subscription",
    );
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/subscriptions");
    const note = page.locator(`[data-discount="${code}"]`);
    await note.waitFor();
    expect(await note.textContent()).toBe(`Code ${code}: $21.00 for the next 2 renewals`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
