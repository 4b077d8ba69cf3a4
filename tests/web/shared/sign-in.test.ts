import { beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { createProduct, http, posProductFor, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
let admin: Account;
const customer = { email: "", password: "customer password" };

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
  customer.email = `console-customer-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email: customer.email, password: customer.password, name: "Console Customer" },
  });
  expect(registered.status).toBe(201);
}, 30_000);

describe.skipIf(!hasChromium)("signing in to the consoles", () => {
  test("an admin signs in, lands on the overview and signs out, which forgets the token", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin);
    await page.waitForURL(`${e2e.url}/admin/overview`);
    expect(await page.evaluate(() => sessionStorage.getItem("marketplace.admin_token"))).toContain('"token"');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem("marketplace.admin_token"))).toBeNull();
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    expect(watched.foreign(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("a wrong password shows the API's message, and the sign-in form passes axe", async () => {
    const page = await browser.newPage();
    await page.goto(`${e2e.url}/admin`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const login = await http(e2e.url, "POST", "/api/auth/login", {
      body: { email: admin.email, password: "not the password" },
    });
    await page.getByText(login.body.detail).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem("marketplace.admin_token"))).toBeNull();
    await page.close();
  }, 30_000);

  test("a customer who signs in at /admin is told it is for admins, and kept out", async () => {
    const page = await browser.newPage();
    await page.goto(`${e2e.url}/admin`);
    await page.getByLabel("Email").fill(customer.email);
    await page.getByLabel("Password").fill(customer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("This console is for admins.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem("marketplace.admin_token"))).toBeNull();
    await page.close();
  }, 30_000);

  test("a token the API refuses (401) sends the admin back to sign-in", async () => {
    const page = await browser.newPage();
    await signIn(page, e2e.url, "admin", admin);
    await page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem("marketplace.admin_token") as string);
      sessionStorage.setItem("marketplace.admin_token", JSON.stringify({ ...stored, token: "expired.or.forged" }));
    });
    await page.reload();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem("marketplace.admin_token"))).toBeNull();
    await page.close();
  }, 30_000);

  test("at 375 px wide nothing is wider than the screen, and the keyboard reaches every section", async () => {
    await createProduct(e2e, posProductFor(e2e));
    const page = await browser.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page, e2e.url, "admin", admin, "/products");
    // The products table is what could be too wide: measure once it is drawn.
    await page.getByRole("region", { name: "Products", exact: true }).getByRole("row").nth(1).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const reached: string[] = [];
    for (let i = 0; i < 13; i += 1) {
      await page.keyboard.press("Tab");
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ""));
    }
    expect(reached).toEqual(expect.arrayContaining(["Products", "Gateways", "Fulfillments", "Orders", "Sign out"]));
    await page.close();
  }, 30_000);

  test('the first Tab reaches "Skip to content", and Enter moves the focus to the page, not the address', async () => {
    const page = await browser.newPage();
    await signIn(page, e2e.url, "admin", admin);
    await page.waitForURL(`${e2e.url}/admin/overview`);
    await page.reload();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    expect(new URL(page.url()).pathname).toBe("/admin/overview");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.querySelector("main")?.contains(document.activeElement))).toBe(true);
    await page.close();
  }, 30_000);
});
