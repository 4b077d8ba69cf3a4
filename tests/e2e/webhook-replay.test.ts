import { beforeAll, describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, http, useE2e } from "../support/e2e.ts";
import { expectProblemShape } from "../support/http.ts";
import { status, webhookReceiver } from "../support/webhook-receiver.ts";
import {
  allSettled,
  arrivals,
  deliveriesOf,
  endpointFor,
  publishEvents,
  replayFinished,
} from "../support/webhook-replays.ts";

const db = useTestDatabase();
// One retry 10 ms after the first attempt: a delivery to a receiver that is down dies at once.
const e2e = useE2e(db, { env: { OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms", WEBHOOK_REPLAY_PER_SECOND: "50" } });
let token = "";

beforeAll(async () => {
  token = await adminToken(e2e);
});

const replay = (endpointId: string, body: unknown) =>
  http(e2e.url, "POST", `/api/admin/webhook-endpoints/${endpointId}/replay`, { token, body });

const seqOf = (request: { body: string }) => (JSON.parse(request.body) as { data: { seq: number } }).data.seq;

describe("replaying an endpoint's outgoing events", () => {
  test("what a receiver missed while down arrives in creation order, under the original webhook-ids, signed", async () => {
    const receiver = webhookReceiver(status(503, "down for maintenance"));
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "order.paid");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "order.paid", 12);
    const dead = await allSettled(e2e, endpoint.id, 12);
    expect(dead.every((delivery) => delivery.state === "dead")).toBe(true);
    const webhookIdOf = new Map(dead.map((delivery) => [delivery.event_id, delivery.webhook_id]));

    receiver.received.length = 0;
    receiver.otherwise(() => new Response("ok"));
    const asked = await replay(endpoint.id, { since, only_failed: true });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ endpoint_id: endpoint.id, status: "running", total: 12, only_failed: true });
    expect(asked.body.since).toBe(since);

    const done = await replayFinished(e2e, endpoint.id, asked.body.id, 10_000);
    expect(done).toMatchObject({ total: 12, processed: 12, sent: 12, failed: 0, pending: 0 });
    expect(done.finished_at).not.toBeNull();

    const got = arrivals(endpoint.secret, receiver.received);
    expect(got.map((arrival) => arrival.seq)).toEqual([...Array(12).keys()]);
    expect(new Set(got.map((arrival) => arrival.webhookId))).toEqual(new Set(webhookIdOf.values()));

    // The deliveries list shows which deliveries the replay sent, and the same figures.
    const replayed = await deliveriesOf(e2e, endpoint.id, `&replay_id=${asked.body.id}`);
    expect(replayed).toHaveLength(12);
    expect(replayed.every((d) => d.state === "succeeded" && d.replay_id === asked.body.id)).toBe(true);
    expect(replayed.map((d) => d.webhook_id).sort()).toEqual([...webhookIdOf.values()].sort());
  }, 15_000);

  test("only_failed leaves out what was delivered; without it everything in the window goes again", async () => {
    // Odd events fail (and die); even ones are delivered.
    const receiver = webhookReceiver((_, received) => new Response("", { status: seqOf(received) % 2 ? 500 : 200 }));
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "order.refunded");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "order.refunded", 8);
    const settled = await allSettled(e2e, endpoint.id, 8);
    expect(settled.filter((d) => d.state === "succeeded")).toHaveLength(4);

    receiver.received.length = 0;
    receiver.otherwise(() => new Response("ok"));
    const failedOnly = await replay(endpoint.id, { since, only_failed: true });
    expect(failedOnly.body.total).toBe(4);
    const first = await replayFinished(e2e, endpoint.id, failedOnly.body.id, 10_000);
    expect(first).toMatchObject({ processed: 4, sent: 4, failed: 0 });
    expect(receiver.received.map(seqOf)).toEqual([1, 3, 5, 7]);

    receiver.received.length = 0;
    const everything = await replay(endpoint.id, { since, until: new Date().toISOString() });
    expect(everything.body).toMatchObject({ total: 8, only_failed: false });
    await replayFinished(e2e, endpoint.id, everything.body.id, 10_000);
    expect(receiver.received.map(seqOf)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Each delivery counts for the replay that last sent it; the list shows the newest first.
    const listed = await http(e2e.url, "GET", `/api/admin/webhook-endpoints/${endpoint.id}/replays?limit=1`, { token });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: everything.body.id, sent: 8, total: 8 })]);
    const older = await http(
      e2e.url,
      "GET",
      `/api/admin/webhook-endpoints/${endpoint.id}/replays?limit=1&cursor=${listed.body.next_cursor}`,
      { token },
    );
    expect(older.body.items).toEqual([expect.objectContaining({ id: failedOnly.body.id, sent: 0, total: 4 })]);
  }, 15_000);

  test("a window must start in the past and end after it; an unknown endpoint or replay is a 404", async () => {
    const receiver = webhookReceiver();
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "license.reissued");
    const path = `/api/admin/webhook-endpoints/${endpoint.id}/replay`;
    const post = async (id: string, body: unknown) => {
      const response = await fetch(`${e2e.url}${path.replace(endpoint.id, id)}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    };
    const now = Date.now();
    const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    for (const body of [{}, { since: "yesterday" }, { since: at(-1000), until: "soon" }, { since: 1 }]) {
      expectProblemShape(await post(endpoint.id, body), 422, "VALIDATION_FAILED");
    }
    const inverted = await post(endpoint.id, { since: at(-1000), until: at(-2000) });
    expectProblemShape(inverted, 422, "VALIDATION_FAILED");
    expect(inverted.body.errors).toEqual([expect.objectContaining({ path: "/until", code: "NOT_AFTER_SINCE" })]);
    const future = await post(endpoint.id, { since: at(60_000) });
    expect(future.body.errors).toEqual([expect.objectContaining({ path: "/since", code: "IN_THE_FUTURE" })]);
    expectProblemShape(await post(crypto.randomUUID(), { since: at(-1000) }), 404, "WEBHOOK_ENDPOINT_NOT_FOUND");

    const unknown = await fetch(
      `${e2e.url}/api/admin/webhook-endpoints/${endpoint.id}/replays/${crypto.randomUUID()}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expectProblemShape(
      { status: unknown.status, headers: unknown.headers, body: await unknown.json() },
      404,
      "WEBHOOK_REPLAY_NOT_FOUND",
    );
  }, 15_000);
});
