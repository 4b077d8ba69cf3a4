import { describe, expect, test } from "bun:test";
import { errors } from "playwright-core";
import { hasChromium } from "../../support/browser.ts";
import { seriousViolations, signIn } from "../../support/console.ts";
import { adminToken, FAST_JOBS, http } from "../../support/e2e.ts";
import { useAccountFixture } from "./account-fixture.ts";

const { e2e, products, aCustomer, bought, get, newPage, purchase, onboarding } = useAccountFixture();

const isDashboard = (url: string) => new URL(url).pathname === "/api/dashboard";

describe.skipIf(!hasChromium)("the account's next actions in Chromium", () => {
  test("a failed delivery is retried from the page, which updates itself until the workspace is ready", async () => {
    const customer = await aCustomer();
    await onboarding({ mode: "error", status: 500, count: Number(FAST_JOBS.JOB_MAX_ATTEMPTS) });
    await bought(customer, products.pos, "monthly", "failed");
    await bought(customer, products.setup, "regular", "manual_pending");
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer);
    const team = purchase(page, products.setup, "regular");
    await team.getByText(/^Our team is on it; expect it by .+\.$/).waitFor();
    const item = purchase(page, products.pos, "monthly");
    expect(await item.getByText("Status: failed").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await onboarding({ mode: "delay", delay_ms: 4000, count: 1 });
    await item.getByRole("button", { name: "Try again" }).click();
    await item.getByText(/^Status: (queued|processing)/).waitFor();
    await page.getByRole("status").filter({ hasText: "this page updates every few seconds" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await item.getByRole("link", { name: "Open your workspace" }).waitFor({ timeout: 15_000 });
    expect(await item.getByText("Status: active").count()).toBe(1);
    await page.getByRole("status").filter({ hasText: "Up to date." }).waitFor();
    const dashboardCalls = () => watched.requests.filter(isDashboard).length;
    const calls = dashboardCalls();
    // It did update itself while the delivery was under way: the first load, and at least one more.
    expect(calls).toBeGreaterThanOrEqual(2);
    // Up to date, it stops: no request within a window longer than the 3 s it waits between updates.
    // Ends at the first request, so a page that keeps asking fails here, not a sleep later.
    const next = await page
      .waitForRequest((request) => isDashboard(request.url()), { timeout: 5000 })
      .then(
        (request) => `asked again: ${request.url()}`,
        (error) => {
          if (error instanceof errors.TimeoutError) return "quiet";
          throw error;
        },
      );
    expect(next).toBe("quiet");
    expect(dashboardCalls()).toBe(calls);
    const dashboard = await get(customer, "/api/dashboard");
    expect(dashboard.items.map((i: { status: string }) => i.status).sort()).toEqual(["active", "manual_pending"]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);

  test("a delivery waiting for a domain takes it from the form, refusing a bad one in the API's words", async () => {
    const customer = await aCustomer();
    const waiting = await bought(customer, products.dedicated, "monthly", "awaiting_customer");
    const refused = await http(e2e.url, "POST", `/api/fulfillments/${waiting.id}/customer-input`, {
      token: customer.token,
      body: { domain: "not a domain" },
    });
    expect(refused.status).toBe(422);
    const { page, watched } = await newPage();
    await signIn(page, e2e.url, "account", customer);
    const item = purchase(page, products.dedicated, "monthly");
    await item.getByText("Tell us the domain your installation should use").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const domain = item.getByLabel("Domain");
    await domain.fill("not a domain");
    await item.getByRole("button", { name: "Save domain" }).click();
    const said =
      refused.body.errors?.find((e: { path: string }) => e.path === "/domain")?.message ?? refused.body.detail;
    await item.getByText(said).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await domain.fill("books.example.com");
    await domain.press("Enter");
    await item.getByText(/^Our team is on it; expect it by .+\.$/).waitFor({ timeout: 10_000 });
    expect(await item.getByText("Status: manual pending").count()).toBe(1);
    expect((await get(customer, `/api/fulfillments/${waiting.id}`)).status).toBe("manual_pending");
    const tasks = await http(e2e.url, "GET", "/api/admin/manual-tasks?status=open&limit=100", {
      token: await adminToken(e2e),
    });
    const task = tasks.body.items.find(
      (t: { fulfillment_record_id: string }) => t.fulfillment_record_id === waiting.id,
    );
    expect(task.instructions).toContain("books.example.com");
    // Chromium logs every refused request as a console error; the 422 asked for above is the one expected.
    const refusal = /status of 422 .*\/customer-input\)$/;
    expect(watched.errorsOn(e2e.url).filter((error) => !refusal.test(error))).toEqual([]);
    expect(watched.errorsOn(e2e.url).filter((error) => refusal.test(error))).toHaveLength(1);
    await page.close();
  }, 60_000);
});
