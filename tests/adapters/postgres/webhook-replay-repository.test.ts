import { describe, expect, test } from "bun:test";
import { createPostgresWebhookDeliveryRepository } from "../../../adapters/postgres/webhook-delivery-repository.ts";
import { createPostgresWebhookEndpointRepository } from "../../../adapters/postgres/webhook-endpoint-repository.ts";
import { createPostgresWebhookReplayRepository } from "../../../adapters/postgres/webhook-replay-repository.ts";
import { createSecretCipher } from "../../../adapters/secrets/secret-cipher.ts";
import { TEST_SECRETS_KEY } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

async function anEndpointAndEvents(inOneTransaction: number, apart: number) {
  const { sql } = db.current;
  const cipher = createSecretCipher(TEST_SECRETS_KEY);
  const endpoint = await createPostgresWebhookEndpointRepository(sql, cipher).create({
    url: "https://hooks.example.com/in",
    events: ["order.paid"],
    description: null,
    secret: "whsec_c2VjcmV0",
  });
  // Events of one transaction share its creation time, to the microsecond.
  await sql.begin(async (tx) => {
    for (let seq = 0; seq < inOneTransaction; seq += 1) {
      await tx`insert into outgoing_events (type, data) values ('order.paid', ${tx.json({ seq })})`;
    }
  });
  for (let seq = inOneTransaction; seq < inOneTransaction + apart; seq += 1) {
    await sql`insert into outgoing_events (type, data) values ('order.paid', ${sql.json({ seq })})`;
  }
  await sql`insert into outgoing_events (type, data) values ('order.refunded', ${sql.json({ seq: -1 })})`;
  return { endpoint, deliveries: createPostgresWebhookDeliveryRepository(sql, cipher) };
}

describe("webhook replays in PostgreSQL", () => {
  test("the cursor passes each event of the window once, creation time then id, ties and microseconds included", async () => {
    const { endpoint } = await anEndpointAndEvents(4, 3);
    const replays = createPostgresWebhookReplayRepository(db.current.sql);
    const since = new Date(Date.now() - 60_000);
    // Ahead of the clock: an event made in this millisecond, to the microsecond, is in the window.
    const until = new Date(Date.now() + 1_000);
    const replay = await replays.start({ endpoint_id: endpoint.id, since, until, only_failed: false });
    expect(replay).toMatchObject({ status: "running", total: 7, processed: 0, sent: 0 });
    if (!replay) throw new Error("no replay");

    const seen: string[] = [];
    for (let page = await replays.next(replay.id, 2); page.length > 0; page = await replays.next(replay.id, 2)) {
      for (const event of page) {
        seen.push(event.id);
        await replays.advance(replay.id, event);
      }
    }
    const inOrder = await db.current.sql<{ id: string }[]>`
      select id from outgoing_events where type = 'order.paid' order by created_at, id`;
    expect(seen).toEqual(inOrder.map((row) => row.id));
    expect(await replays.find(endpoint.id, replay.id)).toMatchObject({ processed: 7 });

    // One running replay per endpoint; once completed, another may start.
    expect(await replays.start({ endpoint_id: endpoint.id, since, until, only_failed: true })).toBeUndefined();
    await replays.complete(replay.id, new Date());
    expect(await replays.start({ endpoint_id: endpoint.id, since, until, only_failed: true })).toMatchObject({
      total: 7,
    });
  });

  test("a replay takes a delivery over, making the one never made, and counts it by state", async () => {
    const { endpoint, deliveries } = await anEndpointAndEvents(0, 2);
    const replays = createPostgresWebhookReplayRepository(db.current.sql);
    const replay = await replays.start({
      endpoint_id: endpoint.id,
      since: new Date(Date.now() - 60_000),
      until: new Date(Date.now() + 1_000),
      only_failed: true,
    });
    if (!replay) throw new Error("no replay");
    const [first, second] = await replays.next(replay.id, 10);
    if (!first || !second) throw new Error("two events expected");
    const made = await deliveries.replayRun(replay.id, first.id);
    expect(made).toMatchObject({ state: "pending", attempts: 0, redeliveries: 1, replay_id: replay.id });
    if (!made) throw new Error("no delivery");
    // The run before the replay records nothing any more; the replay's run does.
    await deliveries.recordAttempt(
      { ...made, redeliveries: 0 },
      { state: "dead", status_code: 500, error: "x", at: new Date() },
    );
    await deliveries.recordAttempt(made, { state: "succeeded", status_code: 200, error: null, at: new Date() });
    const again = await deliveries.replayRun(replay.id, second.id);
    if (!again) throw new Error("no delivery");
    await deliveries.recordAttempt(again, { state: "dead", status_code: 500, error: "down", at: new Date() });
    expect(await replays.find(endpoint.id, replay.id)).toMatchObject({ sent: 1, failed: 1, pending: 0 });

    const listed = await deliveries.list(endpoint.id, { replay_id: replay.id }, { limit: 10 });
    expect(listed.items.map((delivery) => delivery.state).sort()).toEqual(["dead", "succeeded"]);
    expect(await deliveries.list(endpoint.id, { replay_id: "not-a-uuid" }, { limit: 10 })).toEqual({
      items: [],
      next_cursor: null,
    });
  });

  test("a failed replay keeps its error, frees the endpoint, and runs again when claimed while no other runs", async () => {
    const { endpoint } = await anEndpointAndEvents(0, 1);
    const replays = createPostgresWebhookReplayRepository(db.current.sql);
    const window = {
      endpoint_id: endpoint.id,
      since: new Date(Date.now() - 60_000),
      until: new Date(),
      only_failed: false,
    };
    const replay = await replays.start(window);
    if (!replay) throw new Error("no replay");
    const lease = await replays.claim(replay.id);
    if (lease === undefined) throw new Error("no lease");

    // A run another has taken over cannot fail it; the run holding it can.
    await replays.fail(replay.id, new Date(), "stale", lease - 1);
    expect(await replays.find(endpoint.id, replay.id)).toMatchObject({ status: "running", last_error: null });
    await replays.fail(replay.id, new Date(), "secret cannot be opened", lease);
    const failed = await replays.find(endpoint.id, replay.id);
    expect(failed).toMatchObject({ status: "failed", last_error: "secret cannot be opened" });
    expect(failed?.finished_at).not.toBeNull();
    expect(await replays.next(replay.id, 10)).toEqual([]);

    // Another replay may start; while it runs, the failed one is not taken up again.
    const other = await replays.start(window);
    if (!other) throw new Error("no second replay");
    expect(await replays.claim(replay.id)).toBeUndefined();
    await replays.cancel(endpoint.id, other.id, new Date());
    // Its step job redriven, it runs again from its cursor.
    expect(await replays.claim(replay.id)).toBe(lease + 1);
    expect(await replays.find(endpoint.id, replay.id)).toMatchObject({
      status: "running",
      last_error: null,
      finished_at: null,
    });
  });
});
