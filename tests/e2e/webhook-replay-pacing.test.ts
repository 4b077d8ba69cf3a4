import { beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../support/app.ts";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, eventually, FAST_JOBS, http, useE2e } from "../support/e2e.ts";
import { webhookReceiver } from "../support/webhook-receiver.ts";
import { allSettled, arrivals, endpointFor, publishEvents, replayFinished } from "../support/webhook-replays.ts";

const db = useTestDatabase();
const ENV = { OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms", WEBHOOK_REPLAY_PER_SECOND: "10" };
const e2e = useE2e(db, { env: ENV });
let token = "";

beforeAll(async () => {
  token = await adminToken(e2e);
});

const replay = (endpointId: string, body: unknown) =>
  http(e2e.url, "POST", `/api/admin/webhook-endpoints/${endpointId}/replay`, { token, body });

/** A receiver that notes when each request arrived, answering 500 to the events `failing` names. */
function timedReceiver(failing: (seq: number) => boolean = () => false) {
  const times: number[] = [];
  const receiver = webhookReceiver((_, received) => {
    times.push(performance.now());
    const { seq } = (JSON.parse(received.body) as { data: { seq: number } }).data;
    return new Response("", { status: failing(seq) ? 500 : 200 });
  });
  db.onTeardown(() => receiver.stop());
  return { receiver, times };
}

/**
 * The most requests that arrived within any one second, less `jitterMs`: the replay spaces the
 * starts of its POSTs, and the receiver sees each a millisecond or two sooner or later.
 */
function busiestSecond(times: readonly number[], jitterMs: number): number {
  let most = 0;
  for (const [i, start] of times.entries()) {
    most = Math.max(most, times.slice(i).filter((time) => time < start + 1000 - jitterMs).length);
  }
  return most;
}

describe("a replay is paced at WEBHOOK_REPLAY_PER_SECOND", () => {
  test("40 events at 10 a second: never more than 10 within a second, in order, about 4 seconds in all", async () => {
    const { receiver, times } = timedReceiver();
    const endpoint = await endpointFor(e2e, receiver, "subscription.renewed");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "subscription.renewed", 40);
    await allSettled(e2e, endpoint.id, 40);

    receiver.received.length = 0;
    times.length = 0;
    const asked = await replay(endpoint.id, { since });
    expect(asked.status).toBe(202);
    expect(asked.body.total).toBe(40);
    expect(await replayFinished(e2e, endpoint.id, asked.body.id, 15_000)).toMatchObject({ sent: 40, failed: 0 });

    expect(arrivals(endpoint.secret, receiver.received).map((arrival) => arrival.seq)).toEqual([...Array(40).keys()]);
    const busiest = busiestSecond(times, 20);
    const spanMs = (times.at(-1) ?? 0) - (times[0] ?? 0);
    console.log(
      `replay of 40 at 10/s: busiest second ${busiest} requests (${busiestSecond(times, 0)} without the jitter allowance), first to last ${Math.round(spanMs)} ms`,
    );
    expect(busiest).toBeLessThanOrEqual(10);
    expect(spanMs).toBeGreaterThanOrEqual(3_800);
  }, 20_000);

  test("an event that keeps failing goes on with its own retries and dies; the replay moves on", async () => {
    const { receiver } = timedReceiver((seq) => seq === 2);
    const endpoint = await endpointFor(e2e, receiver, "subscription.cancelled");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "subscription.cancelled", 6);
    await allSettled(e2e, endpoint.id, 6);

    receiver.received.length = 0;
    const asked = await replay(endpoint.id, { since });
    const done = await replayFinished(e2e, endpoint.id, asked.body.id, 10_000);
    expect(done).toMatchObject({ total: 6, processed: 6, sent: 5, failed: 1, pending: 0 });
    const seqs = arrivals(endpoint.secret, receiver.received).map((arrival) => arrival.seq);
    // Its first attempt in its place, its retry (the schedule's one) whenever it fell due.
    expect(seqs.filter((seq) => seq === 2)).toHaveLength(2);
    expect([...new Set(seqs)]).toEqual([0, 1, 2, 3, 4, 5]);
  }, 20_000);

  test("a second replay while one runs is a 409; the replay goes on after its worker stops and another starts", async () => {
    const { receiver } = timedReceiver();
    const endpoint = await endpointFor(e2e, receiver, "license.suspended");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "license.suspended", 30);
    await allSettled(e2e, endpoint.id, 30);

    receiver.received.length = 0;
    const asked = await replay(endpoint.id, { since });
    await eventually(async () => receiver.received.length >= 5, 5000, "the replay under way");
    const second = await replay(endpoint.id, { since });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("WEBHOOK_REPLAY_RUNNING");
    const listed = await http(e2e.url, "GET", `/api/admin/webhook-endpoints/${endpoint.id}/replays`, { token });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: asked.body.id, status: "running" })]);

    await e2e.marketplace.worker.stop({ timeoutMs: 5000 });
    const whileStopped = receiver.received.length;
    await Bun.sleep(700);
    expect(receiver.received.length).toBe(whileStopped);
    expect(whileStopped).toBeLessThan(30);

    const restarted = createTestMarketplace(db.current.sql, {}, { env: { ...FAST_JOBS, ...ENV } });
    db.onTeardown(async () => {
      await restarted.worker.stop({ timeoutMs: 2000 });
      await restarted.close();
    });
    restarted.worker.start();
    expect(await replayFinished(e2e, endpoint.id, asked.body.id, 10_000)).toMatchObject({ processed: 30, sent: 30 });
    const seqs = arrivals(endpoint.secret, receiver.received).map((arrival) => arrival.seq);
    // The event in flight when the worker stopped may come twice, under the same webhook-id.
    expect([...new Set(seqs)]).toEqual([...Array(30).keys()]);
    expect(seqs.length).toBeLessThanOrEqual(31);

    const next = await replay(endpoint.id, { since, only_failed: true });
    expect(next.status).toBe(202);
    expect(next.body.total).toBe(0);
  }, 20_000);
});
