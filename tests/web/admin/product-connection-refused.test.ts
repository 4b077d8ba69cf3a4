import { describe, expect, test } from "bun:test";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations } from "../../support/console.ts";
import { http } from "../../support/e2e.ts";
import { configInput, descriptionOf, statusBeside, useProductConsole } from "./product-fixture.ts";

/** The outbound URL guard as in production: the test's own loopback simulator is refused too. */
const { e2e, open, token, refusedLoad } = useProductConsole({ env: { ALLOW_PRIVATE_PROVIDER_URLS: "false" } });

const CONFIG = {
  onboard_endpoint: "/api/marketplace/onboard",
  status_endpoint: "/api/marketplace/status/{external_reference}",
  credentials_ref: "sim_token",
  timeout_seconds: "10",
};

describe.skipIf(!hasChromium)("test connection to an address the marketplace does not call", () => {
  for (const base_url of ["http://169.254.169.254", "http://10.0.0.1"]) {
    test(`${base_url} is refused before any call, and the reason is shown beside base_url`, async () => {
      const { page, watched } = await open("/products/new");
      await page.getByLabel("Delivery model").selectOption("saas_multitenant");
      await page.getByLabel("Fulfillment driver").selectOption("multitenant_saas");
      await configInput(page, "base_url").fill(base_url);
      for (const [key, value] of Object.entries(CONFIG)) await configInput(page, key).fill(value);
      await configInput(page, "auth_mode").selectOption("bearer");
      await page.getByRole("button", { name: "Test connection" }).click();

      const answer = await http(e2e.url, "POST", "/api/admin/fulfillment/test-connection", {
        token: token(),
        body: {
          fulfillment_driver: "multitenant_saas",
          fulfillment_config: { ...CONFIG, base_url, auth_mode: "bearer", timeout_seconds: 10 },
        },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe("URL_NOT_ALLOWED");
      const [refusal] = answer.body.errors;
      expect(refusal.path).toBe("/fulfillment_config/base_url");

      await statusBeside(page, "Test connection")
        .filter({ hasText: `Not connected. ${answer.body.detail} base_url: ${refusal.message}.` })
        .waitFor();
      const input = configInput(page, "base_url");
      expect(await input.getAttribute("aria-invalid")).toBe("true");
      expect(await descriptionOf(input)).toContain(`base_url ${refusal.message}`);
      expect(page.url()).toBe(`${e2e.url}/admin/products/new`);
      expect(await seriousViolations(page)).toEqual([]);
      expect(watched.errorsOn(e2e.url)).toEqual([refusedLoad("/api/admin/fulfillment/test-connection")]);
      await page.close();
    }, 30_000);
  }
});
