import { beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const browser = useBrowser();
let admin: Account;

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
}, 30_000);

describe.skipIf(!hasChromium)("the Discounts page", () => {
  test("creates a code (its errors shown at their fields), lists it with its redemptions, and disables it", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    page.on("dialog", (dialog) => dialog.accept());
    await signIn(page, e2e.url, "admin", admin, "/discounts");
    const form = page.getByRole("region", { name: "New discount" });
    await form.getByLabel("Code").fill("x");
    await form.getByLabel("Percent off").fill("12.5");
    await form.getByRole("button", { name: "Create the discount" }).click();
    await form.getByText(/must be 3 to 40 letters/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await form.getByLabel("Code").fill("SPRING-SALE");
    await form.getByLabel("Redemptions at most").fill("3");
    await form.getByRole("button", { name: "Create the discount" }).click();
    await form.getByText("Created SPRING-SALE.").waitFor();
    const row = page.getByRole("region", { name: "Discounts" }).getByRole("row").filter({ hasText: "SPRING-SALE" });
    await row.waitFor();
    expect(await row.textContent()).toContain("12.5 %");
    expect(await row.textContent()).toContain("0 of 3");
    expect(await row.locator(".status").textContent()).toBe("active");
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("button", { name: "Disable SPRING-SALE" }).click();
    await row.locator(".status", { hasText: "disabled" }).waitFor();
    const [stored] = await db.current.sql<{ amount: string; disabled: boolean }[]>`
      select amount::text, disabled_at is not null as disabled from discounts where code = 'SPRING-SALE'`;
    expect(stored).toEqual({ amount: "1250", disabled: true });
    // The one refusal, of the bad code, is the browser's console line for a 422; nothing else.
    expect(watched.errorsOn(e2e.url)).toEqual([
      `console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) (${e2e.url}/api/admin/discounts)`,
    ]);
    await page.close();
  }, 60_000);
});
