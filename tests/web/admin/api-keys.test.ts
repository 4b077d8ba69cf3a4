import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { seriousViolations, signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { http, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const browser = useBrowser();
const admin = useAdminAccount(e2e);

describe.skipIf(!hasChromium)("the API keys page", () => {
  test("an admin creates a key, sees its secret once, the key works within its scope, and revoking it stops it", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    page.on("dialog", (dialog) => void dialog.accept());
    await signIn(page, e2e.url, "admin", admin, "/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    await page.getByText("No keys yet.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Name").fill("Storefront server");
    await page.getByLabel("catalog:read").check();
    await page.getByRole("button", { name: "Create the key" }).click();
    const shown = page.getByRole("status").filter({ hasText: "shown this once" });
    await shown.waitFor();
    const secret = (await shown.locator("code").textContent()) ?? "";
    expect(secret).toMatch(/^mk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("cell", { name: "Storefront server", exact: true }).waitFor();
    expect(await page.getByRole("cell", { name: `${secret.slice(0, 11)}…` }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    expect((await http(e2e.url, "GET", "/api/admin/products", { token: secret })).status).toBe(200);
    const write = await http(e2e.url, "POST", "/api/admin/products", { token: secret, body: {} });
    expect([write.status, write.body.missing_scope]).toEqual([403, "catalog:write"]);

    // Dismissed, the secret is gone from the page for good.
    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.getByText(secret).count()).toBe(0);

    await page.getByRole("button", { name: "Revoke Storefront server" }).click();
    await page.getByText(/^Revoked /).waitFor();
    expect((await http(e2e.url, "GET", "/api/admin/products", { token: secret })).status).toBe(401);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
