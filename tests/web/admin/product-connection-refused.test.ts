import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type Browser, hasChromium, openBrowser, watchPage } from "../../support/browser.ts";
import { type Account, anAdminAccount, seriousViolations, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { adminToken, http, useE2e } from "../../support/e2e.ts";

/** The outbound URL guard as in production: the test's own loopback simulator is refused too. */
const db = useTestDatabase();
const e2e = useE2e(db, { env: { ALLOW_PRIVATE_PROVIDER_URLS: "false" } });

let browser: Browser | undefined;
let admin: Account;
let token = "";

beforeAll(async () => {
  admin = await anAdminAccount(e2e);
  token = await adminToken(e2e);
  if (hasChromium) browser = await openBrowser();
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

const configInput = (page: Page, key: string) => page.getByLabel(new RegExp(`^${key}(\\s*\\*)?$`)).first();

const CONFIG = {
  onboard_endpoint: "/api/marketplace/onboard",
  status_endpoint: "/api/marketplace/status/{external_reference}",
  credentials_ref: "sim_token",
  timeout_seconds: "10",
};

describe.skipIf(!hasChromium)("test connection to an address the marketplace does not call", () => {
  for (const base_url of ["http://169.254.169.254", "http://10.0.0.1"]) {
    test(`${base_url} is refused before any call, and the reason is shown beside base_url`, async () => {
      const page = await (browser as Browser).context.newPage();
      const watched = watchPage(page);
      await signIn(page, e2e.url, "admin", admin, "/products/new");
      await page.getByLabel("Delivery model").selectOption("saas_multitenant");
      await page.getByLabel("Fulfillment driver").selectOption("multitenant_saas");
      await configInput(page, "base_url").fill(base_url);
      for (const [key, value] of Object.entries(CONFIG)) await configInput(page, key).fill(value);
      await configInput(page, "auth_mode").selectOption("bearer");
      await page.getByRole("button", { name: "Test connection" }).click();

      const answer = await http(e2e.url, "POST", "/api/admin/fulfillment/test-connection", {
        token,
        body: {
          fulfillment_driver: "multitenant_saas",
          fulfillment_config: { ...CONFIG, base_url, auth_mode: "bearer", timeout_seconds: 10 },
        },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe("URL_NOT_ALLOWED");
      const [refusal] = answer.body.errors;
      expect(refusal.path).toBe("/fulfillment_config/base_url");

      const status = page
        .getByRole("button", { name: "Test connection" })
        .locator("xpath=following-sibling::*[@role='status']");
      await status.filter({ hasText: `Not connected. ${answer.body.detail} base_url: ${refusal.message}.` }).waitFor();
      const input = configInput(page, "base_url");
      expect(await input.getAttribute("aria-invalid")).toBe("true");
      const described = await input.evaluate((el) =>
        (el.getAttribute("aria-describedby") ?? "")
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent)
          .join(" | "),
      );
      expect(described).toContain(`base_url ${refusal.message}`);
      expect(page.url()).toBe(`${e2e.url}/admin/products/new`);
      expect(await seriousViolations(page)).toEqual([]);
      expect(watched.errorsOn(e2e.url)).toEqual([
        `console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) (${e2e.url}/api/admin/fulfillment/test-connection)`,
      ]);
      await page.close();
    }, 30_000);
  }
});
