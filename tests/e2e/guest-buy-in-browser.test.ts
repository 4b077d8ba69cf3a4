import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../support/browser.ts";
import { seriousViolations } from "../support/console.ts";
import { useTestDatabase } from "../support/database.ts";
import { createProduct, eventually, http, posProductFor, useE2e } from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db, { mailSandbox: true });
const browser = useBrowser();

interface SandboxMail {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

/** The link to `path` in the first email the simulator's mail sandbox holds for `email` whose subject ends so. */
async function linkInMail(email: string, subjectEnd: string, path: string): Promise<string> {
  const mail = await eventually(
    async () => {
      const box = (await (await fetch(`${e2e.sim.url}/__sim/mail?format=json`)).json()) as { items: SandboxMail[] };
      return box.items.find((item) => item.to.includes(email) && item.subject.endsWith(subjectEnd));
    },
    10_000,
    `an email to ${email}`,
  );
  const link = new RegExp(`\\S+${path.replaceAll("/", "\\/")}\\S*`).exec(mail.text)?.[0];
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return link;
}

describe.skipIf(!hasChromium)("buying from a product page in Chromium, as a guest", () => {
  test("the form opens the hosted checkout, paying lands on the order page without signing in, and the email's link makes an account", async () => {
    const product = await createProduct(
      e2e,
      posProductFor(e2e, { enabled_payment_gateways: ["gateway_a", "gateway_b"] }),
    );
    const email = `browser-guest-${crypto.randomUUID()}@example.com`;
    const page = await browser.newPage();
    const watched = watchPage(page);

    await page.goto(`${e2e.url}/products/${product.slug}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Plan").selectOption("monthly");
    await page.getByLabel("Pay with").selectOption("gateway_b");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name (optional)").fill("Grace");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(/\/checkout\/gateway_b\/cs_/);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]+\?checkout=success&access=[0-9a-f]{64}$/);

    await page
      .locator("#items tr .status")
      .filter({ hasText: /^active$/ })
      .waitFor({ timeout: 20_000 })
      .catch(async (error: Error) => {
        // Say what the page showed and where the delivery stood, should it never get there.
        const records = await db.current.sql`select status, attempts, last_error from fulfillment_records
          where order_id = ${page.url().split("/orders/")[1]?.split("?")[0] ?? ""}`;
        throw new Error(
          `${error.message}\npage: ${await page.locator("body").textContent()}\nrecords: ${JSON.stringify(records)}`,
        );
      });
    await page.getByText("Up to date.").waitFor();
    expect(await page.getByRole("heading", { name: "Sign in" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /workspace/i }).getAttribute("href")).toContain("/workspaces/");
    expect(await seriousViolations(page)).toEqual([]);

    const claim = await linkInMail(email, "is ready", "/account/claim");
    expect(claim.startsWith(`${e2e.url}/account/claim?token=`)).toBe(true);
    await page.goto(claim);
    await page.getByRole("heading", { name: "Keep your orders in an account" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Password").fill("a guest turned customer");
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page
      .getByText(/Point of Sale/)
      .first()
      .waitFor();
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a refused address comes back on the form, said by its field", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const page = await browser.newPage();
    await page.goto(`${e2e.url}/products/${product.slug}`);
    // The browser's own check would stop an address with no @; this one passes it and the server refuses it.
    await page.getByLabel("Email").fill("a..b@example.com");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.locator("#email-error").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("a..b@example.com");
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 30_000);

  test("signed in, the form asks for no address and the order goes to the account", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const email = `browser-customer-${crypto.randomUUID()}@example.com`;
    const password = "a signed in customer";
    await http(e2e.url, "POST", "/api/auth/register", { body: { email, password, name: "Cora" } });
    const page = await browser.newPage();
    const watched = watchPage(page);
    await page.goto(`${e2e.url}/account`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();

    await page.goto(`${e2e.url}/products/${product.slug}`);
    await page.getByText(`Signed in as ${email}`).waitFor();
    expect(await page.getByLabel("Email").isVisible()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(/\/checkout\/gateway_b\/cs_/);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]+\?checkout=success$/);
    await page
      .locator("#items tr .status")
      .filter({ hasText: /^active$/ })
      .waitFor({ timeout: 15_000 });
    const [owner] = await db.current.sql<{ email: string; guest: boolean }[]>`
      select u.email, u.guest from orders o join users u on u.id = o.customer_id
      join order_items i on i.order_id = o.id where i.product_id = ${product.id}`;
    expect(owner).toEqual({ email, guest: false });
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
