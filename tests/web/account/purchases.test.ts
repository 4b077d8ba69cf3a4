import { describe, expect, test } from "bun:test";
import type { Route } from "playwright-core";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations, signIn } from "../../support/console.ts";
import { useAccountFixture } from "./account-fixture.ts";

const { e2e, products, aCustomer, bought, newPage, purchase } = useAccountFixture();

type Answer = { items: Record<string, unknown>[] };

/** Answers with the API's own answer changed by `change`. */
async function changed(route: Route, change: (body: Answer) => void) {
  const response = await route.fetch();
  const body = (await response.json()) as Answer;
  change(body);
  await route.fulfill({ response, json: body });
}

describe.skipIf(!hasChromium)("the customer's purchases in Chromium", () => {
  test("a failed update while a delivery is in progress keeps the purchases on screen and tries again", async () => {
    const customer = await aCustomer();
    await bought(customer, products.pos, "monthly");
    const { page, watched } = await newPage();
    let answers = 0;
    await page.route("**/api/dashboard", async (route) => {
      answers += 1;
      if (answers === 1)
        return changed(route, (body) => {
          Object.assign(body.items[0] ?? {}, {
            status: "processing",
            next_action: { kind: "wait", label: "Setting up your workspace" },
          });
        });
      if (answers === 2)
        return route.fulfill({
          status: 503,
          contentType: "application/problem+json",
          json: {
            type: "about:blank",
            title: "Unavailable",
            status: 503,
            code: "UNAVAILABLE",
            detail: "The marketplace is busy.",
          },
        });
      return route.continue();
    });
    await signIn(page, e2e.url, "account", customer);
    const item = purchase(page, products.pos, "monthly");
    await item.getByText("Status: processing").waitFor();
    await page.getByRole("status").filter({ hasText: "this page updates every few seconds" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("alert").filter({ hasText: "The marketplace is busy." }).waitFor();
    expect(await item.getByText("Status: processing").count()).toBe(1);
    await page.getByRole("status").filter({ hasText: "trying again in a few seconds" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await item.getByRole("link", { name: "Open your workspace" }).waitFor();
    expect(await page.getByRole("alert").filter({ hasText: "The marketplace is busy." }).count()).toBe(0);
    await page.getByRole("status").filter({ hasText: "Up to date." }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const refused = /status of 503 .*\/api\/dashboard\)$/;
    expect(watched.errorsOn(e2e.url).filter((error) => !refused.test(error))).toEqual([]);
    await page.close();
  }, 60_000);

  test("an address that is no web link is shown as words, on the purchases and the licenses pages", async () => {
    const customer = await aCustomer();
    await bought(customer, products.pos, "monthly");
    await bought(customer, products.licensed, "regular");
    const { page, watched } = await newPage();
    const unsafe = "javascript:document.title='taken'";
    await page.route("**/api/dashboard", (route) =>
      changed(route, (body) => {
        for (const item of body.items) Object.assign(item.next_action as object, { url: unsafe });
      }),
    );
    await page.route("**/api/licenses", (route) =>
      changed(route, (body) => {
        for (const license of body.items) license.download_url = unsafe;
      }),
    );
    await signIn(page, e2e.url, "account", customer);
    const workspace = purchase(page, products.pos, "monthly");
    await workspace.getByText("Open your workspace").waitFor();
    expect(await workspace.getByRole("link", { name: "Open your workspace" }).count()).toBe(0);
    const download = purchase(page, products.licensed, "regular");
    await download.getByText(/^Download the release/).waitFor();
    expect(await download.getByRole("link", { name: /^Download the release/ }).count()).toBe(0);
    expect(await page.locator("main a[href^='javascript:' i]").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Licenses" }).click();
    const card = page.getByRole("article", { name: new RegExp(`^${products.licensed.name}`) });
    await card.getByText("the link given is not one this page can open").waitFor();
    expect(await card.getByRole("link").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
