import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { seriousViolations } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually, http, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db, { mailSandbox: true });
const browser = useBrowser();

interface SandboxMail {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

/** The address link in the newest email with `subject` the simulator's mail sandbox holds for `email`. */
async function addressLinkIn(email: string, subject: string): Promise<string> {
  const mail = await eventually(
    async () => {
      const box = (await (await fetch(`${e2e.sim.url}/__sim/mail?format=json`)).json()) as { items: SandboxMail[] };
      return box.items.find((item) => item.to.includes(email) && item.subject === subject);
    },
    10_000,
    `"${subject}" to ${email}`,
  );
  const link = /\S+\/account\/verify-email\?token=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no address link in: ${mail.text}`);
  return link;
}

describe.skipIf(!hasChromium)("the account's settings in Chromium, through the mail sandbox", () => {
  test("a customer signs up, verifies the address, changes the password, then moves to a new address", async () => {
    const email = `settings-${crypto.randomUUID()}@example.com`;
    const password = "a settings passphrase";
    const page = await browser.newPage();
    const watched = watchPage(page);

    await page.goto(`${e2e.url}/account`);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create the account" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Settings" }).click();
    await page.getByText(`${email}: not verified yet`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const other = await http(e2e.url, "POST", "/api/auth/login", { body: { email, password } });
    expect(other.status).toBe(200);

    // The emailed link asks for a click before it confirms anything.
    const verify = await addressLinkIn(email, "Confirm your email address");
    await page.goto(verify);
    await page.getByRole("heading", { name: "Confirm your email address" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect((await http(e2e.url, "GET", "/api/me", { token: other.body.token })).body.email_verified).toBe(false);
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await page.getByRole("status").filter({ hasText: "Your email address is confirmed" }).waitFor();

    await page.goto(`${e2e.url}/account/settings`);
    await page.getByText(`${email}: verified`).waitFor();

    await page.getByLabel("Current password").fill(password);
    await page.getByLabel("New password").fill("a changed passphrase");
    await page.getByRole("button", { name: "Change the password" }).click();
    await page.getByRole("status").filter({ hasText: "Your password is changed" }).waitFor();
    // This browser's session stays; the one signed in elsewhere ended.
    expect((await http(e2e.url, "GET", "/api/me", { token: other.body.token })).status).toBe(401);

    const next = `moved-${crypto.randomUUID()}@example.com`;
    await page.getByLabel("New email address").fill(next);
    await page.getByLabel("Your password").fill("a changed passphrase");
    await page.getByRole("button", { name: "Send a confirmation link" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `A link is on its way to ${next}` })
      .waitFor();
    await page.goto(await addressLinkIn(next, "Confirm your new email address"));
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await page.getByRole("status").filter({ hasText: "Your email address is confirmed" }).waitFor();
    await page.goto(`${e2e.url}/account/settings`);
    await page.getByText(`${next}: verified`).waitFor();
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
