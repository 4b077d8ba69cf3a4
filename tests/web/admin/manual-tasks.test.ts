import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aManagedSetupProduct } from "../../support/builders/products.ts";
import { seriousViolations, signIn, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import {
  buyAndPay,
  createProduct,
  fulfillmentReaches,
  fulfillmentsOf,
  registerCustomer,
  useE2e,
} from "../../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const browser = useBrowser();
const admin = useAdminAccount(e2e);

describe.skipIf(!hasChromium)("the Manual tasks page", () => {
  test("a managed setup's task shows its due time, overdue ones are marked, and Complete makes it active", async () => {
    const product = await createProduct(
      e2e,
      aManagedSetupProduct({ sla_hours: 48, instructions_template: "Set up the shop for order {{order_id}}" }),
    );
    const customer = await registerCustomer(e2e);
    const late = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_a");
    const onTime = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_b");
    const lateRecord = await fulfillmentReaches(db, late.orderId, "manual_pending", 8000);
    await fulfillmentReaches(db, onTime.orderId, "manual_pending", 8000);
    await db.current.sql`
      update ops_tasks set due_at = now() - interval '2 hours' where fulfillment_record_id = ${lateRecord.id}`;

    const page = await browser.newPage();
    const watched = watchPage(page);
    await signIn(page, e2e.url, "admin", admin);
    await page.getByRole("link", { name: "Manual tasks" }).click();
    await page.getByRole("heading", { name: "Manual tasks", level: 1 }).waitFor();
    const taskOf = (orderId: string) => page.getByRole("article").filter({ hasText: `for order ${orderId}` });
    const lateTask = taskOf(late.orderId);
    const onTimeTask = taskOf(onTime.orderId);
    await lateTask.waitFor();
    await onTimeTask.waitFor();
    expect(await lateTask.getByText("Overdue").count()).toBe(1);
    expect(await onTimeTask.getByText("Overdue").count()).toBe(0);
    await page.getByText("1 task is overdue.").waitFor();
    const due = await onTimeTask.locator("dt:text-is('Due') + dd").textContent();
    expect(due).toMatch(/\d/);
    expect(await seriousViolations(page)).toEqual([]);

    await onTimeTask.getByLabel("Notes").fill("Set up over a call");
    await onTimeTask.getByRole("button", { name: "Complete" }).click();
    await page.getByText("is completed; its delivery is now active.").waitFor();
    await onTimeTask.waitFor({ state: "detached" });
    expect((await fulfillmentsOf(db, onTime.orderId))[0]?.status).toBe("active");
    expect((await fulfillmentsOf(db, late.orderId))[0]?.status).toBe("manual_pending");
    expect(await lateTask.count()).toBe(1);

    await page.getByLabel("Status").selectOption("completed");
    await onTimeTask.waitFor();
    expect(await onTimeTask.textContent()).toContain("Set up over a call");
    expect(await onTimeTask.getByRole("button", { name: "Complete" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.errorsOn(e2e.url)).toEqual([]);
    await page.close();
  }, 60_000);
});
