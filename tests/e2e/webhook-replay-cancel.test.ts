import { beforeAll, describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, eventually, http, useE2e } from "../support/e2e.ts";
import { expectProblemShape } from "../support/http.ts";
import { webhookReceiver } from "../support/webhook-receiver.ts";
import { endpointFor, publishEvents, replayOf } from "../support/webhook-replays.ts";

const db = useTestDatabase();
// Two events a second: a replay of 20 takes ten seconds, time enough to stop it.
const e2e = useE2e(db, { env: { OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms", WEBHOOK_REPLAY_PER_SECOND: "2" } });
let token = "";

beforeAll(async () => {
  token = await adminToken(e2e);
});

const replay = (endpointId: string, body: unknown) =>
  http(e2e.url, "POST", `/api/admin/webhook-endpoints/${endpointId}/replay`, { token, body });
const cancel = (endpointId: string, replayId: string) =>
  http(e2e.url, "POST", `/api/admin/webhook-endpoints/${endpointId}/replays/${replayId}/cancel`, { token });

async function problemOf(endpointId: string, body: unknown) {
  const response = await fetch(`${e2e.url}/api/admin/webhook-endpoints/${endpointId}/replay`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("stopping a replay, and the dates a window takes", () => {
  test("a cancelled replay sends nothing more, and the endpoint may replay again at once", async () => {
    const receiver = webhookReceiver();
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "order.paid");
    const since = new Date(Date.now() - 1000).toISOString();
    await publishEvents(db.current, "order.paid", 20);
    await eventually(async () => receiver.received.length >= 20);
    receiver.received.length = 0;

    const asked = await replay(endpoint.id, { since });
    expect(asked.status).toBe(202);
    await eventually(async () => receiver.received.length > 0);
    const stopped = await cancel(endpoint.id, asked.body.id);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: asked.body.id, status: "cancelled" });
    expect(stopped.body.finished_at).not.toBeNull();
    const sentBy = receiver.received.length;
    await Bun.sleep(1_500);
    // At most the event in flight as the cancel came.
    expect(receiver.received.length).toBeLessThanOrEqual(sentBy + 1);
    expect(await replayOf(e2e, endpoint.id, asked.body.id)).toMatchObject({ status: "cancelled" });

    // Cancelling again returns it as it is; an unknown replay is a 404.
    expect((await cancel(endpoint.id, asked.body.id)).body).toMatchObject({ status: "cancelled" });
    expect((await cancel(endpoint.id, crypto.randomUUID())).status).toBe(404);

    const again = await replay(endpoint.id, { since });
    expect(again.status).toBe(202);
    expect((await cancel(endpoint.id, again.body.id)).body).toMatchObject({ status: "cancelled" });
  }, 20_000);

  test("a date that is not a real one, or outside the years 1 to 9999, is a 422 on its field", async () => {
    const receiver = webhookReceiver();
    db.onTeardown(() => receiver.stop());
    const endpoint = await endpointFor(e2e, receiver, "license.reissued");
    const cases = [
      [{ since: "0000-01-01T00:00:00Z" }, "/since"],
      [{ since: "-000001-01-01T00:00:00Z" }, "/since"],
      [{ since: "2026-02-30T00:00:00Z" }, "/since"],
      [{ since: "0001-01-01T00:00:00+01:00" }, "/since"],
      [{ since: "2026-01-01T00:00:00Z", until: "2026-04-31T00:00:00Z" }, "/until"],
    ] as const;
    for (const [body, path] of cases) {
      const problem = await problemOf(endpoint.id, body);
      expectProblemShape(problem, 422, "VALIDATION_FAILED");
      expect(problem.body.errors).toEqual([expect.objectContaining({ path })]);
    }
    const leapDay = await replay(endpoint.id, { since: "2024-02-29T00:00:00Z" });
    expect(leapDay.status).toBe(202);
    expect(leapDay.body.since).toBe("2024-02-29T00:00:00.000Z");
  }, 15_000);
});
