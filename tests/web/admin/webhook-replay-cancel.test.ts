import { describe, expect, test } from "bun:test";
import { hasChromium, useBrowser } from "../../support/browser.ts";
import { seriousViolations, signIn, typedTime, useAdminAccount } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { adminToken, eventually, http, useE2e } from "../../support/e2e.ts";
import { webhookReceiver } from "../../support/webhook-receiver.ts";
import { endpointFor, publishEvents, replayOf } from "../../support/webhook-replays.ts";

const db = useTestDatabase();
const e2e = useE2e(db, { env: { WEBHOOK_REPLAY_PER_SECOND: "1" } });
const browser = useBrowser();
const admin = useAdminAccount(e2e);

/** The receiver holds its next request until `release` is called: the replay sending it stays running. */
function holdNext(receiver: ReturnType<typeof webhookReceiver>) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  receiver.answerNext(async () => {
    await held;
    return new Response("ok");
  });
  return () => release();
}

describe.skipIf(!hasChromium)("cancelling a replay on the Webhooks page", () => {
  test("the followed replay and a running one in the list each have a Cancel button that stops it; a failed one says why", async () => {
    const receiver = webhookReceiver();
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "order.paid");
    const since = Date.now() - 60_000;
    await publishEvents(db.current, "order.paid", 4);
    await eventually(async () => receiver.received.length === 4);
    receiver.received.length = 0;

    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await signIn(page, e2e.url, "admin", admin, `/webhooks/${endpoint.id}`);
    await page.getByRole("heading", { level: 1, name: "Webhook endpoint" }).waitFor();

    // The replay started from the form is followed, and cancelled from beside its progress.
    const releaseFirst = holdNext(receiver);
    await page.getByLabel("Since").fill(await typedTime(page, since));
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    const progress = page.locator("#replay-status");
    await progress.filter({ hasText: /^Running: / }).waitFor();
    await eventually(async () => receiver.received.length === 1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Cancel this replay" }).click();
    await progress.filter({ hasText: /^Cancelled after 0 of 4 events; / }).waitFor();
    expect(dialogs).toEqual(["Stop this replay? The events it has not sent yet will not be sent."]);
    expect(await page.getByRole("button", { name: "Cancel this replay" }).count()).toBe(0);
    const replays = page.getByRole("region", { name: "Past replays" });
    await replays.getByRole("cell", { name: "cancelled", exact: true }).waitFor();
    const [first] = (
      await http(e2e.url, "GET", `/api/admin/webhook-endpoints/${endpoint.id}/replays`, {
        token: await adminToken(e2e),
      })
    ).body.items;
    expect(first).toMatchObject({ status: "cancelled" });
    // The event in flight is answered; nothing after it is sent.
    releaseFirst();
    await Bun.sleep(2_500);
    expect(receiver.received.length).toBe(1);
    expect(await replayOf(e2e, endpoint.id, first.id)).toMatchObject({ status: "cancelled", processed: 0 });

    // One started elsewhere shows in the list while it runs, with its own Cancel button.
    const releaseSecond = holdNext(receiver);
    const asked = await http(e2e.url, "POST", `/api/admin/webhook-endpoints/${endpoint.id}/replay`, {
      token: await adminToken(e2e),
      body: { since: new Date(since).toISOString() },
    });
    expect(asked.status).toBe(202);
    await replays.getByRole("button", { name: "Refresh" }).click();
    const cancelInList = replays.getByRole("button", { name: `Cancel replay ${asked.body.id.slice(0, 8)}` });
    await cancelInList.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await cancelInList.click();
    await eventually(async () => (await replays.getByRole("cell", { name: "cancelled", exact: true }).count()) === 2);
    expect(await replays.getByRole("button", { name: /^Cancel replay / }).count()).toBe(0);
    expect(await replayOf(e2e, endpoint.id, asked.body.id)).toMatchObject({ status: "cancelled" });
    releaseSecond();

    // A replay whose step job gives up (the endpoint's secret can no longer be opened) reads failed,
    // with the reason, and has nothing to cancel.
    await db.current.sql`update webhook_endpoints set secret_ciphertext = '\\x00'::bytea where id = ${endpoint.id}`;
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    await progress.filter({ hasText: /^Failed after 0 of 4 events: .+; 0 delivered/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole("button", { name: "Cancel this replay" }).count()).toBe(0);
    await replays.getByRole("cell", { name: /^failed / }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);
});
