import { describe, expect, test } from "bun:test";
import { CONNECTION_FAILURES } from "../../../web/shared/connection.ts";
import { hasChromium } from "../../support/browser.ts";
import { screenshot, seriousViolations } from "../../support/console.ts";
import { createProduct, http, posProductFor } from "../../support/e2e.ts";
import { configInput, section, statusBeside, useProductConsole } from "./product-fixture.ts";

const { e2e, openProduct, token } = useProductConsole();

type Reason = keyof typeof CONNECTION_FAILURES;

describe.skipIf(!hasChromium)("the services an admin product's page talks to", () => {
  test("test connection reaches the simulator and says so; a missing secret is said in words", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id);
    expect(await configInput(page, "base_url").inputValue()).toBe(e2e.sim.url);
    expect(await configInput(page, "credentials_ref").inputValue()).toBe("sim_token");
    await page.getByRole("button", { name: "Test connection" }).click();
    await statusBeside(page, "Test connection")
      .filter({ hasText: /^Connected \(\d+ ms\)$/ })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "admin-product-editor");

    await configInput(page, "credentials_ref").fill("no_such_secret");
    await page.getByRole("button", { name: "Test connection" }).click();
    const product = await http(e2e.url, "GET", `/api/admin/products/${id}`, { token: token() });
    const report = await http(e2e.url, "POST", "/api/admin/fulfillment/test-connection", {
      token: token(),
      body: {
        fulfillment_driver: "multitenant_saas",
        fulfillment_config: { ...product.body.fulfillment_config, credentials_ref: "no_such_secret" },
      },
    });
    expect(report.body).toMatchObject({ ok: false, reason: "not_configured" });
    await statusBeside(page, "Test connection")
      .filter({
        hasText: `Not connected: ${CONNECTION_FAILURES[report.body.reason as Reason]}. ${report.body.message}`,
      })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("gateway A create and sync say what they did, price by price", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id);
    const gateway = section(page, "Gateway A");
    await gateway.getByRole("button", { name: "Create on gateway A" }).click();
    await statusBeside(page, "Create on gateway A")
      .filter({ hasText: /^Gateway A product \S+ created in sandbox\.$/ })
      .waitFor();
    await gateway.getByRole("button", { name: "Sync prices to gateway A" }).click();
    await statusBeside(page, "Sync prices to gateway A")
      .filter({ hasText: /unchanged in sandbox\.$/ })
      .waitFor();
    const monthly = gateway.getByRole("row").filter({ hasText: /^monthly/ });
    const cells = await monthly.getByRole("cell").allTextContents();
    expect(cells[1]).toContain("31.00");
    expect(cells[3]).toBe("base price");
    const regular = await gateway
      .getByRole("row")
      .filter({ hasText: /^regular/ })
      .getByRole("cell")
      .allTextContents();
    expect(regular[0]).toBe("not for sale");
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("with management enabled the provider's overview, tenants and plans are shown", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const providerSays = async (what: string) => {
      const answer = await http(e2e.url, "GET", `/api/admin/products/${id}/provider/${what}`, { token: token() });
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const plans = await providerSays("plans");
    const overviewAnswer = await providerSays("overview");
    const tenantsAnswer = await providerSays("tenants");
    const { page, watched } = await openProduct(id);
    const provider = section(page, "Provider");
    const table = provider.getByRole("region", { name: "Provider plans" });
    await table.waitFor();
    for (const plan of plans.items) {
      const cells = await table.getByRole("row").filter({ hasText: plan.name }).getByRole("cell").allTextContents();
      expect(cells).toEqual([plan.id, plan.name, plan.billing_intervals.join(", ")]);
    }

    // The overview loads by its own request: read it once it is drawn.
    const overview = provider.getByRole("region", { name: "Provider overview" });
    await overview.getByRole("cell").first().waitFor();
    const headers = await overview.getByRole("columnheader").allTextContents();
    const values = await overview.getByRole("cell").allTextContents();
    // Tenants, a count per status, Plans, then when the provider answered: as the API says.
    const byStatus = overviewAnswer.tenants_by_status as Record<string, number>;
    expect(headers).toHaveLength(Object.keys(byStatus).length + 3);
    expect([headers[0], headers.at(-2)]).toEqual(["Tenants", "Plans"]);
    expect(values.slice(0, -1)).toEqual([
      String(overviewAnswer.tenants_total),
      ...Object.values(byStatus).map(String),
      String(overviewAnswer.plans_total),
    ]);
    expect(overviewAnswer.plans_total).toBe(plans.items.length);

    // The tenants as the API lists them: the empty note only when it lists none, else a row each.
    const tenants = provider.getByRole("region", { name: "Provider tenants" });
    const noTenants = provider.getByText("The provider has no tenants yet.");
    const listed = tenantsAnswer.items as { external_tenant_id: string }[];
    if (tenantsAnswer.next_cursor === null) expect(overviewAnswer.tenants_total).toBe(listed.length);
    if (listed.length === 0) {
      await noTenants.waitFor();
      expect(await tenants.count()).toBe(0);
    } else {
      await tenants.waitFor();
      expect(await noTenants.count()).toBe(0);
      const shown = await tenants.locator("tbody tr td:first-child").allTextContents();
      expect(shown).toEqual(listed.map((tenant) => tenant.external_tenant_id));
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("a tenant links to its workspace only when the provider's address is http(s)", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const tenant = (external_tenant_id: string, workspace_url?: string) => ({
      external_tenant_id,
      status: "active",
      plan: "pro",
      order_id: crypto.randomUUID(),
      ...(workspace_url === undefined ? {} : { workspace_url }),
    });
    const answer = {
      items: [
        tenant("tn_web", "https://workspaces.example.com/tn_web"),
        tenant("tn_script", "javascript:alert(document.cookie)"),
        tenant("tn_data", "data:text/html,<script>alert(1)</script>"),
        tenant("tn_none"),
      ],
      next_cursor: null,
    };
    const { page, watched } = await openProduct(id, undefined, async (opening) => {
      await opening.route(`**/api/admin/products/${id}/provider/tenants`, (route) => route.fulfill({ json: answer }));
    });
    const tenants = section(page, "Provider").getByRole("region", { name: "Provider tenants" });
    await tenants.waitFor();
    expect(await tenants.getByRole("link", { name: "tn_web" }).getAttribute("href")).toBe(
      "https://workspaces.example.com/tn_web",
    );
    for (const name of ["tn_script", "tn_data", "tn_none"]) {
      expect(await tenants.getByRole("link", { name }).count()).toBe(0);
      expect(await tenants.getByRole("row").filter({ hasText: name }).getByRole("cell").first().textContent()).toBe(
        name,
      );
    }
    expect(await tenants.getByRole("link").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);

  test("at 375 px wide nothing is wider than the screen", async () => {
    const { id } = await createProduct(e2e, posProductFor(e2e));
    const { page, watched } = await openProduct(id, { width: 375, height: 740 });
    await page.getByRole("button", { name: "Preview checkout" }).click();
    await section(page, "Checkout preview").getByRole("region").waitFor();
    const provider = section(page, "Provider");
    // Every table the provider's section draws, and its tenants (a table, or the note that there are none).
    await provider.getByRole("region", { name: "Provider plans" }).waitFor();
    await provider.getByRole("region", { name: "Provider overview" }).getByRole("cell").first().waitFor();
    await provider
      .getByRole("region", { name: "Provider tenants" })
      .or(provider.getByText("The provider has no tenants yet."))
      .waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 30_000);
});
