import { describe, expect, test } from "bun:test";
import { hasChromium } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { seriousViolations } from "../../support/console.ts";
import { createProduct, http, posProductFor } from "../../support/e2e.ts";
import { useProductConsole } from "./product-fixture.ts";

const { e2e, open, token } = useProductConsole();

/** The ids of every product, page by page as the API lists them. */
async function allProductIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const { body } = await http(e2e.url, "GET", `/api/admin/products${query}`, { token: token() });
    ids.push(...body.items.map((p: { id: string }) => p.id));
    cursor = body.next_cursor;
  } while (cursor);
  return ids;
}

describe.skipIf(!hasChromium)("the admin products list", () => {
  test("the list shows every product with a link to its page, and a link to a new one", async () => {
    const saas = await createProduct(e2e, posProductFor(e2e));
    const license = await createProduct(e2e, aLicenseProduct({ status: "draft" }));
    const names = await Promise.all(
      [saas, license].map(
        async (p) => (await http(e2e.url, "GET", `/api/admin/products/${p.id}`, { token: token() })).body.name,
      ),
    );
    const { page, watched } = await open("/products");
    await page.getByRole("heading", { name: "Products" }).waitFor();
    const table = page.getByRole("region", { name: "Products" });
    for (const name of names) await table.getByRole("link", { name }).waitFor();
    expect(await table.getByRole("row").filter({ hasText: names[1] }).textContent()).toContain("draft");
    expect(await seriousViolations(page)).toEqual([]);

    await table.getByRole("link", { name: names[0] }).click();
    await page.waitForURL(`${e2e.url}/admin/products/${saas.id}`);
    await page.getByRole("heading", { name: names[0], level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goBack();
    await page.getByRole("link", { name: "New product" }).click();
    await page.waitForURL(`${e2e.url}/admin/products/new`);
    await page.getByRole("heading", { name: "New product" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("show more is busy while its page loads, and two clicks add that page once", async () => {
    const existing = (await allProductIds()).length;
    for (let i = existing; i < 51; i++) await createProduct(e2e, aLicenseProduct());
    // Two pages of 50: the second is the one asked for twice.
    const ids = await allProductIds();

    const { page, watched } = await open("/products");
    const table = page.getByRole("region", { name: "Products" });
    await table.getByRole("link").first().waitFor();
    const shownFirst = await table.getByRole("link").count();
    expect(shownFirst).toBeLessThan(ids.length);

    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/api\/admin\/products\?.*cursor=/, async (route) => {
      await held;
      await route.continue();
    });
    const more = page.getByRole("button", { name: "Show more products" });
    await more.evaluate((button) => {
      (button as HTMLButtonElement).click();
      (button as HTMLButtonElement).click();
    });
    await page.locator("button[aria-busy='true']", { hasText: "Show more products" }).waitFor();
    expect(await more.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    release();

    await more.waitFor({ state: "detached" });
    const shown = await table.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(shown).toEqual(ids.map((id) => `/admin/products/${id}`));
    expect(watched.requests.filter((url) => /\/api\/admin\/products\?.*cursor=/.test(url))).toHaveLength(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
