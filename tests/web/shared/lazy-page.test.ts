import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser } from "../../support/browser.ts";
import { signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const browser = useBrowser();
const admin = useAdminAccount(e2e);

describe.skipIf(!hasChromium)("a console page fetched when first shown", () => {
  test("its code arrives only when it is opened, and a failed fetch offers a reload that works", async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith(".js")) scripts.push(new URL(request.url()).pathname);
    });
    await signIn(page, e2e.url, "admin", admin);
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    const beforeDeadJobs = scripts.length;

    // The Dead jobs page's chunk cannot be fetched: the page says so instead of staying blank.
    await page.route("**/assets/chunk-*.js", (route) => route.abort("connectionrefused"));
    await page.getByRole("link", { name: "Dead jobs" }).click();
    await page.getByRole("alert").filter({ hasText: "This page could not be fetched." }).waitFor();
    expect(await page.getByRole("heading", { name: "Dead jobs", level: 1 }).count()).toBe(0);

    await page.unroute("**/assets/chunk-*.js");
    await page.getByRole("button", { name: "Reload the console" }).click();
    await page.getByRole("heading", { name: "Dead jobs", level: 1 }).waitFor();
    // Its code came in chunks the first load did not fetch.
    expect(scripts.length).toBeGreaterThan(beforeDeadJobs);
    await page.close();
  }, 30_000);
});
