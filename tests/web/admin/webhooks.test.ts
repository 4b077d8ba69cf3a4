import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser, watchPage } from "../../support/browser.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { seriousViolations, signIn, typedTime, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { adminToken, buyAndPay, createProduct, eventually, http, useE2e } from "../../support/e2e.ts";
import { type ReceivedWebhook, status, verifiedPayload, webhookReceiver } from "../../support/webhook-receiver.ts";
import { deliveriesOf } from "../../support/webhook-replays.ts";

const db = useTestDatabase();
// One retry 10 ms after the first attempt: a delivery to a receiver that is down dies at once.
const e2e = useE2e(db, { env: { OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms" } });
const browser = useBrowser();
const admin = useAdminAccount(e2e);

describe.skipIf(!hasChromium)("the Webhooks page", () => {
  test("an admin adds an endpoint, sees a dead delivery, replays what failed and watches it complete under the same webhook-id", async () => {
    const receiver = webhookReceiver();
    db.onTeardown(() => receiver.stop());
    // Down for the purchase's delivery: both attempts refused, so it dies.
    receiver.answerNext(status(503, "down"), status(503, "down"));
    const page = await browser.newPage();
    const watched = watchPage(page);
    page.on("dialog", (dialog) => void dialog.accept());
    await signIn(page, e2e.url, "admin", admin, "/webhooks");
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A URL the shop will not POST to is refused beside its field.
    await page.getByLabel("order.paid").check();
    await page.getByLabel("URL").fill("ftp://example.com/hooks");
    await page.getByRole("button", { name: "Create the endpoint" }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("URL").fill(receiver.url);
    await page.getByLabel("Description").fill("ERP");
    await page.getByRole("button", { name: "Create the endpoint" }).click();
    const shown = page.getByRole("status").filter({ hasText: "shown this once" });
    await shown.waitFor();
    const secret = (await shown.locator("code").nth(1).textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("link", { name: receiver.url }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.getByText(secret).count()).toBe(0);

    const since = Date.now() - 60_000;
    const product = await createProduct(e2e, aLicenseProduct());
    const { orderId } = await buyAndPay(
      e2e,
      { email: `webhooks-${crypto.randomUUID()}@example.com` },
      [{ product_id: product.id, variant: "regular" }],
      "gateway_a",
    );
    await page.getByRole("link", { name: receiver.url }).click();
    await page.getByRole("heading", { level: 1, name: "Webhook endpoint" }).waitFor();
    const endpointId = new URL(page.url()).pathname.split("/").at(-1) as string;
    const [dead] = await eventually(async () => {
      const found = await deliveriesOf(e2e, endpointId);
      return found.length === 1 && found[0]?.state === "dead" && found;
    }, 10_000);
    const original = receiver.received[0];
    expect(verifiedPayload(secret, original as ReceivedWebhook).data.order_id).toBe(orderId);
    expect(original?.headers["webhook-id"]).toBe(dead?.webhook_id);

    const deliveries = page.getByRole("region", { name: "Recent deliveries" });
    await deliveries.getByRole("button", { name: "Refresh" }).click();
    const deadRow = deliveries.getByRole("row").filter({ hasText: dead?.webhook_id as string });
    await deadRow.getByRole("cell", { name: "dead", exact: true }).waitFor();
    await deadRow.getByRole("button", { name: "Redeliver" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A window that starts tomorrow is refused beside its field.
    await page.getByLabel("Since").fill(await typedTime(page, Date.now() + 86_400_000));
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    const sinceField = page.getByLabel("Since");
    await page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await sinceField.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await sinceField.getAttribute("aria-describedby")) ?? "";
    const errorId = describedBy.split(" ").find((id) => id.endsWith("-error")) as string;
    expect(await page.locator(`[id="${errorId}"]`).textContent()).not.toBe("");
    expect(await seriousViolations(page)).toEqual([]);

    // The receiver holds the replayed request until told, so the replay is still running when asked again.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    receiver.answerNext(async () => {
      await held;
      return new Response("ok");
    });
    await page.getByLabel("Since").fill(await typedTime(page, since));
    await page.getByLabel("Only failed").check();
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    const progress = page.locator("#replay-status");
    await progress.filter({ hasText: /^Running: \d of 1 event sent a first time\.$/ }).waitFor();
    expect(await sinceField.getAttribute("aria-invalid")).toBeNull();
    await eventually(async () => receiver.received.length === 3, 10_000);

    const stillSending = page.getByRole("alert").filter({ hasText: "A replay of this endpoint is still sending" });
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    await stillSending.waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Leaving the page stops the polling.
    const polls = () => watched.requests.filter((url) => new URL(url).pathname.includes("/replays")).length;
    await page.getByRole("link", { name: "All webhook endpoints" }).click();
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    const whenLeft = polls();
    await Bun.sleep(2500);
    expect(polls()).toBe(whenLeft);

    // Back on it, a replay asked for again is refused, and the page follows the one that runs.
    await page.getByRole("link", { name: receiver.url }).click();
    await page.getByLabel("Since").fill(await typedTime(page, since));
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    await stillSending.waitFor();
    await progress.filter({ hasText: /^Running: / }).waitFor();

    answer();
    await progress
      .filter({ hasText: "Completed: 1 event sent; 1 delivered, 0 given up, 0 still being tried." })
      .waitFor({
        timeout: 10_000,
      });
    const replayed = receiver.received[2];
    expect(replayed?.headers["webhook-id"]).toBe(dead?.webhook_id);
    expect(verifiedPayload(secret, replayed as ReceivedWebhook).data.order_id).toBe(orderId);

    // The lists below follow: the replay completed, the delivery succeeded under it.
    const replays = page.getByRole("region", { name: "Past replays" });
    await replays.getByRole("cell", { name: "completed", exact: true }).waitFor();
    await deadRow.getByRole("cell", { name: "succeeded", exact: true }).waitFor();
    expect(await deadRow.getByRole("button", { name: "Redeliver" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // Completed, the replay is asked for no more.
    const whenCompleted = polls();
    await Bun.sleep(2500);
    expect(polls()).toBe(whenCompleted);
    // Deleted from the list, the endpoint is gone from the API too.
    await page.getByRole("link", { name: "All webhook endpoints" }).click();
    await page.getByRole("button", { name: `Delete ${receiver.url}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Deleted the endpoint ${receiver.url}.` })
      .waitFor();
    await page.getByRole("link", { name: receiver.url }).waitFor({ state: "detached" });
    const gone = await http(e2e.url, "GET", `/api/admin/webhook-endpoints/${endpointId}`, {
      token: await adminToken(e2e),
    });
    expect(gone.status).toBe(404);

    // The refusals the form showed are all the browser complained of.
    const refused = (status: string) =>
      `console error: Failed to load resource: the server responded with a status of ${status} (${e2e.url}/api/admin/webhook-endpoints/${endpointId}/replay)`;
    expect(watched.errorsOn(e2e.url)).toEqual([
      `console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) (${e2e.url}/api/admin/webhook-endpoints)`,
      refused("422 (Unprocessable Entity)"),
      refused("409 (Conflict)"),
      refused("409 (Conflict)"),
    ]);
    await page.close();
  }, 60_000);
});
