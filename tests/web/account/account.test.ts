import { describe, expect, test } from "bun:test";
import { hasChromium } from "../../support/browser.ts";
import { screenshot, seriousViolations, signIn } from "../../support/console.ts";
import { eventually, http } from "../../support/e2e.ts";
import { simControl } from "../../support/subscriptions.ts";
import { useAccountFixture } from "./account-fixture.ts";

const { db, e2e, products, aCustomer, bought, get, newPage, purchase } = useAccountFixture();

describe.skipIf(!hasChromium)("the customer's account in Chromium", () => {
  test("paid in the hosted checkout, the customer goes from the order page to the account and opens the workspace", async () => {
    const customer = await aCustomer();
    const { page, watched } = await newPage();
    const checkout = await http(e2e.url, "POST", "/api/checkout/create", {
      token: customer.token,
      body: { items: [{ product_id: products.pos.id, variant: "monthly" }], payment_gateway: "gateway_b" },
    });
    expect(checkout.status).toBe(201);
    const orderId = checkout.body.order_id as string;
    await page.goto(checkout.body.checkout.url);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(`${e2e.url}/orders/${orderId}?checkout=success`);
    await page.getByLabel("Email").fill(customer.email);
    await page.getByLabel("Password").fill(customer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Up to date.").waitFor({ timeout: 15_000 });
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("marketplace.customer_token") ?? "{}"));
    expect(stored).toMatchObject({ token: expect.any(String), user: { email: customer.email, role: "customer" } });

    await page.getByRole("link", { name: "Your account" }).click();
    await page.waitForURL(`${e2e.url}/account`);
    const item = purchase(page, products.pos, "monthly");
    await item.waitFor();
    expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
    expect(await item.getByText("Status: active").count()).toBe(1);
    const workspace = item.getByRole("link", { name: "Open your workspace" });
    const dashboard = await get(customer, "/api/dashboard");
    expect(await workspace.getAttribute("href")).toBe(dashboard.items[0].next_action.url);
    expect(await workspace.getAttribute("href")).toContain("/workspaces/");
    await page.getByRole("status").filter({ hasText: "Up to date." }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "account");
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a subscription is cancelled and then resumed from the page, the API agreeing after each", async () => {
    const customer = await aCustomer();
    await bought(customer, products.pos, "monthly");
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/subscriptions");
    const row = page.getByRole("row", { name: new RegExp(products.pos.name) });
    const subscription = async () => (await get(customer, "/api/subscriptions")).items[0];
    await row.getByRole("button", { name: "Cancel" }).waitFor();
    expect(await row.getByRole("button", { name: "Resume" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("button", { name: "Cancel" }).click();
    await row.getByRole("button", { name: "Resume" }).waitFor();
    await row
      .getByRole("status")
      .filter({ hasText: /^Cancelled: it ends / })
      .waitFor();
    expect(await row.getByRole("button", { name: "Cancel" }).count()).toBe(0);
    expect(await subscription()).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await row.textContent()).toContain("Ends ");
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("button", { name: "Resume" }).click();
    await row.getByRole("button", { name: "Cancel" }).waitFor();
    await row
      .getByRole("status")
      .filter({ hasText: /^Resumed: it renews / })
      .waitFor();
    expect(await subscription()).toMatchObject({ status: "active", cancel_at_period_end: false });
    expect(await row.textContent()).toContain("Renews ");
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("after a failed renewal, the card is updated in the gateway's portal from the page, and the subscription recovers", async () => {
    const customer = await aCustomer();
    const record = await bought(customer, products.pos, "monthly");
    const [row] = await db.current.sql<{ gateway_subscription_id: string }[]>`
      select s.gateway_subscription_id from subscriptions s
      join fulfillment_records f on f.order_item_id = s.order_item_id where f.id = ${record.id}`;
    const failed = await simControl(e2e, `/__sim/gateway_b/subscriptions/${row?.gateway_subscription_id}/renew`, {
      fail: true,
    });
    expect(failed.outcome).toBe("failed");
    const subscription = async () => (await get(customer, "/api/subscriptions")).items[0];
    await eventually(async () => (await subscription()).status === "past_due", 5000, "past due");

    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/subscriptions");
    const line = page.getByRole("row", { name: new RegExp(products.pos.name) });
    await line.getByText("The last renewal could not be collected: update your card.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await line.getByRole("button", { name: "Update card" }).click();
    await page.waitForURL(/\/portal\/gateway_b\//);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Update card" }).click();
    await page.getByText("Your card was updated.").waitFor();
    await page.getByRole("link", { name: "Return to the shop" }).click();
    await page.waitForURL(`${e2e.url}/account`);
    await eventually(async () => (await subscription()).status === "active", 5000, "recovered");
    await page.goto(`${e2e.url}/account/subscriptions`);
    await line.getByText("Active").waitFor();
    expect(await line.getByText("update your card").count()).toBe(0);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("the plans a subscription can move to are shown with what they bill, and switching to yearly applies at once", async () => {
    const customer = await aCustomer();
    await bought(customer, products.pos, "monthly");
    const subscription = async () => (await get(customer, "/api/subscriptions")).items[0];
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/subscriptions");
    const line = page.getByRole("row", { name: new RegExp(products.pos.name) });
    await line.getByRole("button", { name: "Change plan" }).click();
    const yearly = line.getByRole("listitem").filter({ has: page.getByRole("button", { name: "Switch to yearly" }) });
    await yearly.waitFor();
    // The gateway's preview: the yearly price less the credit for the unused month, then the yearly price.
    expect(await yearly.textContent()).toMatch(/\$27\d\.\d\d now, then \$310\.00 yearly/);
    expect(await seriousViolations(page)).toEqual([]);
    await yearly.getByRole("button", { name: "Switch to yearly" }).click();
    await line.getByText("Now yearly.").waitFor();
    await line.getByText("yearly", { exact: true }).waitFor();
    expect(await subscription()).toMatchObject({ billing_interval: "yearly", pending_interval: null });
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a regular license is upgraded to extended from the Licenses page: the gateway's checkout for the difference, then the license is extended", async () => {
    const customer = await aCustomer();
    await bought(customer, products.licensed, "regular");
    const license = async () => (await get(customer, "/api/licenses")).items[0];
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/licenses");
    const card = page.getByRole("article", { name: new RegExp(products.licensed.name) });
    await card.getByRole("button", { name: "Upgrade to extended" }).click();
    await page.waitForURL(/\/checkout\/gateway_b\/cs_/);
    // The difference between the two prices: 149.00 - 49.00.
    expect(await page.textContent("body")).toContain("100.00");
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]+\?checkout=success/);
    await eventually(async () => (await license()).license_type === "extended", 8000, "extended");
    await page.goto(`${e2e.url}/account/licenses`);
    await card.getByText("(extended)").waitFor();
    expect(await card.getByRole("button", { name: "Upgrade to extended" }).count()).toBe(0);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a license's machines are listed on the Licenses page, one is deactivated there to free its seat, another gets its offline license file, and the key is copied", async () => {
    const customer = await aCustomer();
    await bought(customer, products.licensed, "regular");
    const license = async () => (await get(customer, "/api/licenses")).items[0];
    const { license_key: key, id } = await license();
    for (const [fingerprint, name] of [
      ["fp-old", "Old laptop"],
      ["fp-desk", "Desktop"],
    ]) {
      const activated = await http(e2e.url, "POST", "/api/licenses/activate", { body: { key, fingerprint, name } });
      expect(activated.status).toBe(200);
    }
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/licenses");
    const card = page.getByRole("article", { name: new RegExp(products.licensed.name) });
    await card.getByRole("button", { name: "Show machines" }).click();
    const machines = card.getByRole("list", { name: "Machines" });
    await machines.getByText("Old laptop").waitFor();
    expect(await machines.getByRole("listitem").count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await machines
      .getByRole("listitem")
      .filter({ hasText: "Old laptop" })
      .getByRole("button", { name: "Deactivate" })
      .click();
    await machines.getByText("Old laptop").waitFor({ state: "detached" });
    expect(await machines.getByRole("listitem").count()).toBe(1);
    const left = (await get(customer, `/api/licenses/${id}/machines`)).items;
    expect(left.map((machine: { name: string }) => machine.name)).toEqual(["Desktop"]);

    // The desktop goes offline: its license file is saved from the page, bound to its fingerprint.
    const saving = page.waitForEvent("download");
    await machines.getByRole("listitem").getByRole("button", { name: "Download license file" }).click();
    const saved = await saving;
    expect(saved.suggestedFilename()).toEndWith("Desktop.license.json");
    const file = JSON.parse(await Bun.file((await saved.path()) ?? "").text());
    expect(file.format).toBe("MKTF1");
    expect(JSON.parse(Buffer.from(file.payload, "base64url").toString())).toMatchObject({
      license_id: id,
      fingerprint: "fp-desk",
    });
    await machines.getByText(/it works offline until/).waitFor();

    // The key goes to the clipboard, for pasting into the software.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: e2e.url });
    await card.getByRole("button", { name: "Copy key" }).click();
    await card.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 375 px wide no page is wider than the screen, and the keyboard reaches every section", async () => {
    const customer = await aCustomer();
    await bought(customer, products.licensed, "regular");
    await bought(customer, products.pos, "monthly");
    const { page, watched } = await newPage(375, 740);
    await signIn(page, e2e.url, "account", customer);
    await purchase(page, products.pos, "monthly").waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const name of ["Licenses", "Subscriptions", "Notifications", "Settings"]) {
      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name, exact: true }).click();
      await page.getByRole("heading", { level: 1, name }).waitFor();
      await page.getByText("Loading…").waitFor({ state: "detached" });
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
    }
    // A move within the console puts the focus on the new page's content, so the header is behind it.
    const reached: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      await page.keyboard.press("Shift+Tab");
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ""));
    }
    expect(reached).toEqual([
      "Sign out",
      "Settings",
      "Notifications",
      "Subscriptions",
      "Licenses",
      "Purchases",
      "Skip to content",
    ]);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${e2e.url}/account/licenses`);
    await page.getByRole("heading", { level: 1, name: "Licenses" }).waitFor();
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
