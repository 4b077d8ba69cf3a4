import { describe, expect, test } from "bun:test";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations, signIn } from "../../support/console.ts";
import { useAccountFixture } from "./account-fixture.ts";

const { e2e, products, aCustomer, bought, get, newPage, purchase } = useAccountFixture();

describe.skipIf(!hasChromium)("the customer's licenses in Chromium", () => {
  test("a license shows its key and download on the purchases and licenses pages; the order page shares the sign-in", async () => {
    const customer = await aCustomer();
    await bought(customer, products.licensed, "regular");
    const [license] = (await get(customer, "/api/licenses")).items;
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer);

    const item = purchase(page, products.licensed, "regular");
    await item.waitFor();
    expect(await item.locator("code").textContent()).toBe(license.license_key);
    expect(await item.getByRole("link", { name: /^Download the release/ }).getAttribute("href")).toStartWith(
      `${e2e.url}/api/downloads/`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await item.getByRole("link", { name: "order details" }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]+$/);
    await page
      .locator("#items tr .status")
      .filter({ hasText: /^active$/ })
      .waitFor();
    expect(await page.getByRole("button", { name: "Sign in" }).isVisible()).toBeFalse();
    await page.getByRole("link", { name: "Your account" }).click();
    await item.waitFor();

    await page.getByRole("link", { name: "Licenses" }).click();
    await page.waitForURL(`${e2e.url}/account/licenses`);
    const card = page.getByRole("article", { name: `${products.licensed.name} (${license.license_type})` });
    await card.waitFor();
    expect(await card.locator("code").textContent()).toBe(license.license_key);
    expect(await card.getByText("0 of 3 activations used").count()).toBe(1);
    const download = await card.getByRole("link", { name: `Download ${products.licensed.name}` }).getAttribute("href");
    const followed = await fetch(download ?? "", { redirect: "manual" });
    expect([followed.status, await followed.text()]).toEqual([200, "app 3.1.0 release archive\n"]);
    expect(await seriousViolations(page)).toEqual([]);

    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
