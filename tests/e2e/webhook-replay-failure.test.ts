import { beforeAll, describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, eventually, http, useE2e } from "../support/e2e.ts";
import { webhookReceiver } from "../support/webhook-receiver.ts";
import { endpointFor, publishEvents, replayFinished, replayOf } from "../support/webhook-replays.ts";

const db = useTestDatabase();
// Two events a second: the replay is still sending when the endpoint's secret is spoilt.
const e2e = useE2e(db, { env: { OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms", WEBHOOK_REPLAY_PER_SECOND: "2" } });
let token = "";

beforeAll(async () => {
  token = await adminToken(e2e);
});

const COUNT = 8;

describe("a replay whose step job is dead-lettered", () => {
  test("ends failed with the step's error, sends nothing more, and goes on from its cursor when the job is redriven", async () => {
    const receiver = webhookReceiver();
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "order.paid");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "order.paid", COUNT);
    await eventually(async () => receiver.received.length >= COUNT);
    receiver.received.length = 0;

    const asked = await http(e2e.url, "POST", `/api/admin/webhook-endpoints/${endpoint.id}/replay`, {
      token,
      body: { since },
    });
    expect(asked.status).toBe(202);
    await eventually(async () => receiver.received.length > 0);
    // The endpoint's secret can no longer be opened (as after a change of SECRETS_KEY): every
    // attempt of the step fails before it sends, until the job's attempts run out.
    const [sealed] = await db.current.sql<{ secret_ciphertext: Uint8Array }[]>`
      select secret_ciphertext from webhook_endpoints where id = ${endpoint.id}`;
    await db.current.sql`update webhook_endpoints set secret_ciphertext = '\\x00'::bytea where id = ${endpoint.id}`;

    const failed = await eventually(
      async () => {
        const replay = await replayOf(e2e, endpoint.id, asked.body.id);
        return replay.status === "failed" && replay;
      },
      10_000,
      "the replay to fail",
    );
    expect(failed.finished_at).not.toBeNull();
    expect(failed.last_error).toEqual(expect.any(String));
    const listed = await http(e2e.url, "GET", `/api/admin/webhook-endpoints/${endpoint.id}/replays`, { token });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: asked.body.id, status: "failed" })]);
    const dead = await http(e2e.url, "GET", "/api/admin/jobs?state=dead&kind=webhook_replay", { token });
    const job = dead.body.items.find(
      (item: { payload: { replay_id?: string } }) => item.payload.replay_id === asked.body.id,
    );
    expect(job).toMatchObject({ kind: "webhook_replay", state: "dead", last_error: failed.last_error });

    // Nothing more reaches the receiver: the events it got are those processed before the fault.
    const sentBy = receiver.received.length;
    await Bun.sleep(1_500);
    expect(receiver.received.length).toBe(sentBy);
    expect(failed.processed).toBe(sentBy);
    expect(sentBy).toBeLessThan(COUNT);

    // With the secret back, a redrive of the dead step takes the replay up from its cursor.
    await db.current.sql`
      update webhook_endpoints set secret_ciphertext = ${sealed?.secret_ciphertext ?? null} where id = ${endpoint.id}`;
    const redriven = await http(e2e.url, "POST", `/api/admin/jobs/${job.id}/redrive`, { token });
    expect(redriven.status).toBe(200);
    const finished = await replayFinished(e2e, endpoint.id, asked.body.id, 10_000);
    expect(finished).toMatchObject({ processed: COUNT, last_error: null });
    expect(receiver.received.length).toBeGreaterThanOrEqual(COUNT);
  }, 30_000);
});
