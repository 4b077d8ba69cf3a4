import { beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually, http, useE2e } from "../../support/e2e.ts";
import { aBoughtLicense } from "../../support/licenses.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const browser = useBrowser();
let admin: Account;

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
}, 30_000);

describe.skipIf(!hasChromium)("the Licenses pages", () => {
  test("find a customer's license by email, see its machine and history, suspend, reinstate and reissue it", async () => {
    const { key } = await aBoughtLicense(e2e, db, {
      config: { max_activations: 2, floating: true, heartbeat_seconds: 600 },
    });
    const [{ email } = { email: "" }] = await db.current.sql<{ email: string }[]>`
      select u.email from licenses l join users u on u.id = l.customer_id where l.license_key = ${key}`;
    const activated = await http(e2e.url, "POST", "/api/licenses/activate", {
      body: { license_key: key, fingerprint: "fp-studio", name: "Studio Mac" },
    });
    expect(activated.status).toBe(200);
    const validate = async (k: string) =>
      (await http(e2e.url, "POST", "/api/licenses/validate", { body: { license_key: k } })).body.code;

    const page = await browser.newPage();
    const watched = watchPage(page);
    page.on("dialog", (dialog) => dialog.accept());
    await signIn(page, e2e.url, "admin", admin, "/licenses");
    await page.getByLabel("Customer email").fill(email);
    const rows = page.getByRole("region", { name: "Licenses" }).getByRole("row");
    // The unfiltered list may show the license first: wait for the list the filter asked for.
    await eventually(async () => (await rows.count()) === 2, 8000, "the list of the customer's one license");
    await rows.filter({ hasText: email }).waitFor();
    expect(await rows.nth(1).textContent()).toContain("1 of 2 floating");
    expect(await seriousViolations(page)).toEqual([]);

    await rows.nth(1).getByRole("link").click();
    await page.waitForURL(/\/admin\/licenses\/[0-9a-f-]+$/);
    await page.getByRole("region", { name: "Machines" }).getByText("Studio Mac").waitFor();
    expect(await page.getByRole("region", { name: "History" }).textContent()).toContain("activated");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Suspend" }).click();
    await page.getByText("Suspended; the customer was told.").waitFor();
    // The page reloads the license after the notice: wait for what it says now.
    await page.locator("#license-status", { hasText: "Suspended (held by an admin)" }).waitFor();
    expect(await validate(key)).toBe("LICENSE_SUSPENDED");

    await page.getByRole("button", { name: "Reinstate" }).click();
    await page.getByText("Reinstated; the customer was told.").waitFor();
    await page.locator("#license-status", { hasText: /^Active$/ }).waitFor();
    expect(await validate(key)).toBeNull();

    await page.getByRole("button", { name: "Reissue key" }).click();
    await page.getByText("A new key is issued and emailed to the customer.").waitFor();
    await page.locator("#license-key", { hasNotText: key }).waitFor();
    const shown = await page.locator("#license-key").textContent();
    expect(await validate(key)).toBe("LICENSE_REPLACED");
    expect(await validate(shown ?? "")).toBeNull();
    expect(await page.getByRole("button", { name: "Extend" }).count()).toBe(0);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
