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

/** The reset link the simulator's mail sandbox holds for `email`. */
async function resetLinkIn(email: string): Promise<string> {
  const mail = await eventually(
    async () => {
      const box = (await (await fetch(`${e2e.sim.url}/__sim/mail?format=json`)).json()) as { items: SandboxMail[] };
      return box.items.find((item) => item.to.includes(email) && item.subject === "Reset your password");
    },
    10_000,
    `a reset email to ${email}`,
  );
  const link = /\S+\/account\/reset-password\?token=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in: ${mail.text}`);
  return link;
}

describe.skipIf(!hasChromium)("a forgotten password in Chromium, through the mail sandbox", () => {
  test("the customer asks for a link from the sign-in form, sets a new password on the linked page and signs in with it", async () => {
    const email = `forgot-${crypto.randomUUID()}@example.com`;
    const registered = await http(e2e.url, "POST", "/api/auth/register", {
      body: { email, password: "a forgotten passphrase", name: "Forgetful" },
    });
    expect(registered.status).toBe(201);
    const page = await browser.newPage();
    const watched = watchPage(page);

    await page.goto(`${e2e.url}/account`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL(`${e2e.url}/account/forgot-password`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByRole("status").filter({ hasText: "a link to choose a new password is on its way" }).waitFor();

    const link = await resetLinkIn(email);
    expect(link.startsWith(`${e2e.url}/account/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("New password").fill("password1234");
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByText("is on a list of common passwords").waitFor();
    await page.getByLabel("New password").fill("a remembered passphrase");
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByRole("heading", { name: "Your password is set" }).waitFor();

    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a remembered passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect((await http(e2e.url, "GET", "/api/me", { token: registered.body.token })).status).toBe(401);

    // The link is spent: opened again, it is refused with a way to ask for another.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.goto(link);
    await page.getByLabel("New password").fill("a third passphrase here");
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByRole("alert").filter({ hasText: "not valid" }).waitFor();
    expect(await page.getByRole("link", { name: "Ask for a new link" }).count()).toBe(1);
    // The browser reports each refusal the page showed (the common password, the spent link) as a
    // failed resource; nothing else went wrong.
    const refusal = (status: string) =>
      `console error: Failed to load resource: the server responded with a status of ${status} (${e2e.url}/api/auth/password-reset/confirm)`;
    expect(watched.errorsOn(e2e.url)).toEqual([refusal("422 (Unprocessable Entity)"), refusal("400 (Bad Request)")]);
    await page.close();
  }, 60_000);
});
