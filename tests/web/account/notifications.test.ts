import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations, signIn } from "../../support/console.ts";
import { eventually } from "../../support/e2e.ts";
import { type Customer, useAccountFixture } from "./account-fixture.ts";

const { e2e, products, aCustomer, bought, get, newPage } = useAccountFixture();

type Listed = { id: string; title: string; read_at: string | null };

const listed = async (customer: Customer): Promise<Listed[]> => (await get(customer, "/api/notifications")).items;

/** A customer with two notifications, one per delivered purchase. */
async function aNotifiedCustomer() {
  const customer = await aCustomer();
  await bought(customer, products.licensed, "regular");
  await bought(customer, products.pos, "monthly");
  await eventually(async () => (await listed(customer)).length === 2, 10_000, "two notifications");
  return customer;
}

/** The page's notification lists come one per page, so two notifications make two pages. */
const onePerPage = (page: Page) =>
  page.route("**/api/notifications*", (route) => {
    const url = new URL(route.request().url());
    if (route.request().method() !== "GET" || url.pathname !== "/api/notifications") return route.continue();
    url.searchParams.set("limit", "1");
    return route.continue({ url: url.toString() });
  });

describe.skipIf(!hasChromium)("the customer's notifications in Chromium", () => {
  test("notifications are shown, one marked read, then all; Unread only then shows none", async () => {
    const customer = await aNotifiedCustomer();
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer, "/notifications");
    await page.getByText("2 unread.").waitFor();
    expect(await page.getByRole("button", { name: "Mark as read" }).count()).toBe(2);
    expect(await page.getByRole("button", { name: "Show older notifications" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Mark as read" }).first().click();
    await page.getByText("1 unread.").waitFor();
    expect((await listed(customer)).filter((n) => n.read_at).length).toBe(1);

    await page.getByRole("button", { name: "Mark all read" }).click();
    await page.getByRole("status").filter({ hasText: "1 marked read." }).waitFor();
    await page.getByText("All read.").waitFor();
    expect(await page.getByRole("button", { name: "Mark as read" }).count()).toBe(0);
    expect((await listed(customer)).every((n) => n.read_at)).toBeTrue();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Unread only").check();
    await page.getByText("Nothing unread.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("older notifications come a page at a time, each once, and the unread count says what it counts", async () => {
    const customer = await aNotifiedCustomer();
    const expected = await listed(customer);
    const { page, watched } = await newPage();
    await onePerPage(page);
    await signIn(page, e2e.url, "account", customer, "/notifications");
    await page.getByText("1 unread of the 1 shown; older ones not counted.").waitFor();
    const articles = page.getByRole("article");
    expect(await articles.count()).toBe(1);
    const older = page.getByRole("button", { name: "Show older notifications" });
    expect(await seriousViolations(page)).toEqual([]);

    await older.dblclick();
    await older.waitFor({ state: "detached" });
    await page.getByText("2 unread.").waitFor();
    const headings = await articles.getByRole("heading").allTextContents();
    expect(headings).toEqual(expected.map((n) => `New: ${n.title}`));
    const pages = watched.requests.filter((url) => new URL(url).pathname === "/api/notifications");
    expect(pages).toHaveLength(2);
    expect(await seriousViolations(page)).toEqual([]);

    await articles.nth(1).getByRole("button", { name: "Mark as read" }).click();
    await page.getByText("1 unread.").waitFor();
    expect(await articles.count()).toBe(2);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
