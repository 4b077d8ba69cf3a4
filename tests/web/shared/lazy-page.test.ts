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
  test("the sign-in form needs only what the page preloads", async () => {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on("request", (request) => {
      if (request.url().endsWith(".js")) scripts.add(new URL(request.url()).pathname);
    });
    await page.goto(`${e2e.url}/admin`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const announced = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel="modulepreload"], script[src]')].map(
        (element) => new URL(element instanceof HTMLLinkElement ? element.href : element.src).pathname,
      ),
    );
    expect(scripts.size).toBeGreaterThan(1);
    expect([...scripts].sort()).toEqual([...new Set(announced)].sort());
    await page.close();
  }, 30_000);

  test("its code arrives only when it is opened, and a failed fetch offers a reload that works", async () => {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    const fetched = new Set<string>();
    page.on("request", (request) => {
      if (request.url().endsWith(".js")) scripts.add(new URL(request.url()).pathname);
    });
    page.on("response", (response) => {
      if (response.status() === 200) fetched.add(new URL(response.url()).pathname);
    });
    await signIn(page, e2e.url, "admin", admin);
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    const loaded = new Set(scripts);

    // The Dead jobs page's chunks cannot be fetched: the page says so instead of staying blank.
    const refused: string[] = [];
    await page.route("**/assets/chunk-*.js", (route) => {
      refused.push(new URL(route.request().url()).pathname);
      return route.abort("connectionrefused");
    });
    await page.getByRole("link", { name: "Dead jobs" }).click();
    await page.getByRole("alert").filter({ hasText: "This page could not be fetched." }).waitFor();
    expect(await page.getByRole("heading", { name: "Dead jobs", level: 1 }).count()).toBe(0);
    // What it asked for was code the first load had not fetched.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((path) => loaded.has(path))).toEqual([]);

    await page.unroute("**/assets/chunk-*.js");
    await page.getByRole("button", { name: "Reload the console" }).click();
    await page.getByRole("heading", { name: "Dead jobs", level: 1 }).waitFor();
    expect(refused.filter((path) => !fetched.has(path))).toEqual([]);
    await page.close();
  }, 30_000);
});
