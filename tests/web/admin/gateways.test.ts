import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { CONNECTION_FAILURES } from "../../../web/shared/connection.ts";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { seriousViolations, signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { adminToken, http, SANDBOX, useE2e } from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
const admin = useAdminAccount(e2e);

const gatewayOn = (page: Page, name: "Gateway A" | "Gateway B") => page.getByRole("region", { name, exact: true });

async function testConnection(page: Page, name: "Gateway A" | "Gateway B") {
  const gateway = gatewayOn(page, name);
  await gateway.getByRole("button", { name: "Test payment gateway connection" }).click();
  const outcome = gateway.getByRole("status");
  await outcome.filter({ hasText: /connected/i }).waitFor();
  return (await outcome.textContent()) ?? "";
}

describe.skipIf(!hasChromium)("the Gateways page", () => {
  test("shows each sandbox gateway's settings without a secret, and tests both connections", async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin, "/gateways");
    await page.getByRole("heading", { name: "Gateways", level: 1 }).waitFor();
    for (const name of ["Gateway A", "Gateway B"] as const) {
      const gateway = gatewayOn(page, name);
      await gateway.waitFor();
      expect(await gateway.locator("dt:text-is('Active environment') + dd").textContent()).toBe("sandbox");
      const sandbox = gateway.getByRole("row", { name: /^Sandbox \(active\)/ });
      expect(await sandbox.getByRole("cell").nth(1).textContent()).toStartWith("set");
    }
    const shown = (await page.locator("main").textContent()) ?? "";
    for (const secret of Object.values(SANDBOX)) expect(shown).not.toContain(secret);
    expect(await seriousViolations(page)).toEqual([]);

    for (const name of ["Gateway A", "Gateway B"] as const) {
      expect(await testConnection(page, name)).toMatch(/^Connected to the sandbox environment in \d+ ms\.$/);
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("shows each environment's circuit breaker: open after outages, closed otherwise", async () => {
    await db.current.sql`
      insert into gateway_breakers (gateway, environment, consecutive_failures, opened_at)
      values ('gateway_a', 'sandbox', 5, now())
      on conflict (gateway, environment) do update set consecutive_failures = 5, opened_at = now()`;
    try {
      const page = await browser.newPage();
      const watched = watchPage(page);
      await signIn(page, e2e.url, "admin", admin, "/gateways");
      const breakerOf = (name: "Gateway A" | "Gateway B", environment: RegExp) =>
        gatewayOn(page, name).getByRole("row", { name: environment }).getByRole("cell").last();
      await gatewayOn(page, "Gateway A").waitFor();
      expect(await breakerOf("Gateway A", /^Sandbox/).textContent()).toMatch(
        /^open since .+ after 5 failures in a row: checkouts skip it$/,
      );
      expect(await breakerOf("Gateway A", /^Live/).textContent()).toBe("closed");
      expect(await breakerOf("Gateway B", /^Sandbox/).textContent()).toBe("closed");
      expect(await seriousViolations(page)).toEqual([]);
      expect(watched.errorsOn(e2e.url)).toEqual([]);
      await page.close();
    } finally {
      await db.current.sql`delete from gateway_breakers`;
    }
  }, 60_000);

  test("a key the gateway refuses is reported in words", async () => {
    const token = await adminToken(e2e);
    const wrong = await http(e2e.url, "PUT", "/api/admin/gateway_b/settings", {
      token,
      body: { sandbox: { api_key: "sk_test_not_the_right_key_000" } },
    });
    expect(wrong.status).toBe(200);
    try {
      const page = await browser.newPage();
      const watched = watchPage(page);
      await signIn(page, e2e.url, "admin", admin, "/gateways");
      await gatewayOn(page, "Gateway B").waitFor();
      const report = await http(e2e.url, "POST", "/api/admin/gateway_b/test-connection", { token });
      expect(report.body).toMatchObject({ ok: false, reason: "bad_credentials", environment: "sandbox" });
      expect(await testConnection(page, "Gateway B")).toBe(
        `Not connected (sandbox environment): ${CONNECTION_FAILURES.bad_credentials}. ${report.body.message}`,
      );
      expect(await seriousViolations(page)).toEqual([]);
      expect(watched.errorsOn(e2e.url)).toEqual([]);
      await page.close();
    } finally {
      const restored = await http(e2e.url, "PUT", "/api/admin/gateway_b/settings", {
        token,
        body: { sandbox: { api_key: SANDBOX.GATEWAY_B_SANDBOX_API_KEY } },
      });
      expect(restored.status).toBe(200);
    }
  }, 60_000);
});
