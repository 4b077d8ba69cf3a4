import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { seriousViolations, signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  FAST_JOBS,
  failOnboarding,
  fulfillmentReaches,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
const admin = useAdminAccount(e2e);

describe.skipIf(!hasChromium)("the Dead jobs page", () => {
  test("a delivery job that died on every attempt is listed, and redriven it delivers", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const attempts = FAST_JOBS.JOB_MAX_ATTEMPTS;
    await failOnboarding(e2e, { mode: "error", status: 500, count: Number(attempts) });
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    const failed = await fulfillmentReaches(db, orderId, "failed", 10_000);
    const token = await adminToken(e2e);
    const dead = await eventually(
      async () => {
        const jobs = await http(e2e.url, "GET", "/api/admin/jobs?state=dead&kind=fulfill&limit=100", { token });
        return jobs.body.items.find(
          (job: { payload: { fulfillment_id?: string } }) => job.payload.fulfillment_id === failed.id,
        ) as { id: string } | undefined;
      },
      5000,
      "the dead fulfill job",
    );

    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin);
    await page.getByRole("link", { name: "Dead jobs" }).click();
    await page.getByRole("heading", { name: "Dead jobs", level: 1 }).waitFor();
    const row = page.getByRole("row").filter({ hasText: failed.id });
    await row.waitFor();
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells.slice(0, 3)).toEqual([dead.id, "fulfill", `${attempts} of ${attempts}`]);
    expect(cells[3]).toContain("HTTP 500");
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("button", { name: "Redrive" }).click();
    await page.getByText(`Job ${dead.id} (fulfill) runs again from its first attempt.`).waitFor();
    await row.waitFor({ state: "detached" });
    await eventually(
      async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active",
      8000,
      "the redriven delivery",
    );
    const job = await http(e2e.url, "GET", "/api/admin/jobs?state=dead&kind=fulfill&limit=100", { token });
    expect(job.body.items.some((item: { id: string }) => item.id === dead.id)).toBeFalse();
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
