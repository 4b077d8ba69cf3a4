import { afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import { createPostgresEventPublisher } from "../../../adapters/postgres/event-publisher.ts";
import type { OutgoingEventType } from "../../../application/outgoing-webhooks/ports.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually, FAST_JOBS } from "../../support/e2e.ts";
import { call } from "../../support/http.ts";
import { status, verifiedPayload, type WebhookReceiver, webhookReceiver } from "../../support/webhook-receiver.ts";

const db = useTestDatabase();
let offsetMs = 0;
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  marketplace = createTestMarketplace(
    db.current.sql,
    {},
    {
      env: { ...FAST_JOBS, OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms,20ms,40ms", OUTGOING_WEBHOOK_TIMEOUT_SECONDS: "1" },
      clock: () => new Date(Date.now() + offsetMs),
    },
  );
  marketplace.worker.start();
  admin = await tokenFor("admin");
  db.onTeardown(async () => {
    await marketplace.worker.stop({ timeoutMs: 3000 });
    for (const receiver of receivers) receiver.stop();
    await marketplace.close();
  });
});

// Each test's endpoints leave with it, so no later event is sent to a receiver that has stopped.
afterEach(async () => {
  await db.current.sql`delete from webhook_endpoints`;
  offsetMs = 0;
});

function receiver(...answers: Parameters<WebhookReceiver["answerNext"]>) {
  const made = webhookReceiver();
  made.answerNext(...answers);
  receivers.push(made);
  return made;
}

async function endpoint(url: string, events: OutgoingEventType[] = ["order.paid"]) {
  const created = await call(marketplace.app, "POST", "/api/admin/webhook-endpoints", {
    token: admin,
    body: { url, events },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

/** Publishes as a use case does: the event and its fan-out job in one transaction. */
async function publish(type: OutgoingEventType, data: Record<string, unknown>) {
  await db.current.sql.begin(async (tx) => {
    await createPostgresEventPublisher(tx, createPostgresJobScheduler({ sql: tx, wake: "notify" })).publish(type, data);
  });
}

interface DeliveryBody {
  id: string;
  webhook_id: string;
  event_id: string;
  state: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
}

async function deliveries(endpointId: string, query = ""): Promise<DeliveryBody[]> {
  const listed = await call(marketplace.app, "GET", `/api/admin/webhook-endpoints/${endpointId}/deliveries${query}`, {
    token: admin,
  });
  expect(listed.status).toBe(200);
  return listed.body.items;
}

const settled = (endpointId: string, state: "succeeded" | "dead", timeoutMs = 8000) =>
  eventually(
    async () => (await deliveries(endpointId)).find((delivery) => delivery.state === state),
    timeoutMs,
    `a ${state} delivery`,
  );

describe("outgoing webhook deliveries through the job queue", () => {
  test("an endpoint answering 500 three times, then 200, gets the event once: 4 attempts, one webhook-id, all signed", async () => {
    const crm = receiver(status(500), status(500), status(500));
    const other = receiver();
    const { id, secret } = await endpoint(crm.url);
    await endpoint(other.url, ["order.refunded"]);
    await publish("order.paid", { order_id: "ord_1", total: 4900 });

    const delivery = await settled(id, "succeeded");
    expect(delivery).toMatchObject({ attempts: 4, last_status_code: 200, last_error: null });
    expect(delivery.delivered_at).not.toBeNull();
    expect(crm.received.map((request) => request.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(crm.received.map((request) => request.headers["webhook-id"]))).toEqual(
      new Set([delivery.webhook_id]),
    );
    const [event] = await db.current.sql<{ created_at: Date }[]>`
      select created_at from outgoing_events where id = ${delivery.event_id}`;
    for (const request of crm.received) {
      expect(verifiedPayload(secret, request)).toEqual({
        type: "order.paid",
        timestamp: event?.created_at.toISOString() ?? "",
        data: { order_id: "ord_1", total: 4900 },
      });
      expect(request.body).not.toContain(secret.slice(6, 20));
    }
    expect(other.received).toHaveLength(0);
  });

  test("a fan-out run twice makes one delivery per endpoint and sends it once", async () => {
    const crm = receiver();
    const { id } = await endpoint(crm.url);
    await publish("order.paid", { order_id: "ord_2" });
    await settled(id, "succeeded");
    const [event] = await db.current.sql<{ id: string }[]>`
      select event_id as id from webhook_deliveries where endpoint_id = ${id}`;
    await db.current.sql`
      insert into jobs (kind, payload) values ('webhook_fanout', ${db.current.sql.json({ event_id: event?.id ?? "" })})`;
    await eventually(
      async () =>
        (await db.current.sql`select 1 from jobs where kind = 'webhook_fanout' and state = 'pending'`).length === 0,
      3000,
      "the second fan-out",
    );
    await Bun.sleep(300);
    expect(await deliveries(id)).toHaveLength(1);
    expect(crm.received).toHaveLength(1);
  });

  test("never acknowledged, the delivery is dead after its last attempt, listed, and redelivered with the same webhook-id", async () => {
    const garbage = crypto.getRandomValues(new Uint8Array(3 * 1024 * 1024));
    const crm = receiver();
    crm.otherwise(() => new Response(garbage, { status: 500 }));
    const { id, secret } = await endpoint(crm.url);
    await publish("order.paid", { order_id: "ord_3" });

    const dead = await settled(id, "dead");
    expect(dead).toMatchObject({ attempts: 4, last_status_code: 500 });
    expect(dead.last_error).toStartWith("HTTP 500");
    expect(dead.last_error?.length).toBeLessThanOrEqual("HTTP 500: ".length + 200);
    expect(await deliveries(id, "?state=dead")).toEqual([dead]);
    expect(await deliveries(id, "?state=succeeded")).toEqual([]);
    const [job] = await db.current.sql<{ state: string }[]>`
      select state from jobs where kind = 'webhook_delivery' and payload->>'delivery_id' = ${dead.id}`;
    expect(job?.state).toBe("done");

    crm.otherwise(() => new Response(garbage, { status: 200 }));
    const redelivered = await call(
      marketplace.app,
      "POST",
      `/api/admin/webhook-endpoints/${id}/deliveries/${dead.id}/redeliver`,
      { token: admin },
    );
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id: dead.id, state: "pending", attempts: 0 });
    const succeeded = await settled(id, "succeeded");
    expect(succeeded).toMatchObject({ id: dead.id, attempts: 1, last_status_code: 200, last_error: null });
    const last = crm.received.at(-1);
    if (!last) throw new Error("nothing received");
    expect(last.headers["webhook-id"]).toBe(dead.webhook_id);
    expect(verifiedPayload(secret, last).data).toEqual({ order_id: "ord_3" });
    expect(crm.received).toHaveLength(5);
    const [audit] = await db.current.sql<{ action: string }[]>`
      select action from audit_log where target_id = ${dead.id}`;
    expect(audit?.action).toBe("webhook_delivery.redeliver");
  });

  test("a redirect is not followed: the delivery fails like any other non-2xx", async () => {
    const elsewhere = receiver();
    const moved = receiver();
    moved.otherwise(() => Response.redirect(elsewhere.url, 302));
    const { id } = await endpoint(moved.url);
    await publish("order.paid", { order_id: "ord_4" });
    const dead = await settled(id, "dead");
    expect(dead).toMatchObject({ attempts: 4, last_status_code: 302 });
    expect(dead.last_error).toContain("redirect");
    expect(elsewhere.received).toHaveLength(0);
  });

  test("a receiver that never answers times out on every attempt", async () => {
    const silent = receiver();
    silent.otherwise(() => new Promise<Response>(() => {}));
    const { id } = await endpoint(silent.url);
    await publish("order.paid", { order_id: "ord_5" });
    const dead = await settled(id, "dead", 12_000);
    expect(dead).toMatchObject({ attempts: 4, last_status_code: null, last_error: "no answer within 1 s" });
    expect(silent.received).toHaveLength(4);
  }, 15_000);

  test("a refused connection is retried, then the delivery is dead", async () => {
    const gone = receiver();
    gone.stop();
    const { id } = await endpoint(gone.url);
    await publish("order.paid", { order_id: "ord_6" });
    const dead = await settled(id, "dead");
    expect(dead).toMatchObject({ attempts: 4, last_status_code: null });
    expect(dead.last_error).toMatch(/connection refused/i);
  });

  test("a 503 with Retry-After waits at least that long before the next attempt", async () => {
    const busy = receiver(status(503, "busy", { "retry-after": "1" }));
    const { id } = await endpoint(busy.url);
    await publish("order.paid", { order_id: "ord_7" });
    await settled(id, "succeeded", 5000);
    expect(busy.received.map((request) => request.status)).toEqual([503, 200]);
    const [first, second] = busy.received.map((request) => Number(request.headers["webhook-timestamp"]));
    // Whole seconds: a second attempt at least 1 s after the first has a timestamp at least 1 higher.
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1);
  });

  test("deleting the endpoint stops its pending deliveries", async () => {
    const failing = receiver();
    failing.otherwise(status(500));
    const { id } = await endpoint(failing.url);
    await publish("order.paid", { order_id: "ord_8" });
    await eventually(async () => failing.received.length >= 1, 5000, "a first attempt");
    const removed = await call(marketplace.app, "DELETE", `/api/admin/webhook-endpoints/${id}`, { token: admin });
    expect(removed.status).toBe(204);
    const attempts = failing.received.length;
    await Bun.sleep(1500);
    expect(failing.received.length).toBeLessThanOrEqual(attempts + 1);
    const jobs = await db.current.sql<{ state: string }[]>`
      select state from jobs where kind = 'webhook_delivery' and state in ('pending', 'running', 'dead')
      and payload->>'delivery_id' not in (select id::text from webhook_deliveries)`;
    expect(jobs.length).toBe(0);
  });

  test("after a rotation both secrets sign for 24 hours; then the old one no longer verifies", async () => {
    const crm = receiver();
    const { id, secret: old } = await endpoint(crm.url);
    const rotated = await call(marketplace.app, "POST", `/api/admin/webhook-endpoints/${id}/rotate-secret`, {
      token: admin,
    });
    const fresh = rotated.body.secret as string;
    await publish("order.paid", { order_id: "ord_9" });
    await settled(id, "succeeded");
    const [during] = crm.received;
    if (!during) throw new Error("nothing received");
    expect(during.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(verifiedPayload(old, during).data).toEqual({ order_id: "ord_9" });
    expect(verifiedPayload(fresh, during).data).toEqual({ order_id: "ord_9" });

    offsetMs = 24 * 3_600_000 + 60_000;
    await publish("order.paid", { order_id: "ord_10" });
    await eventually(async () => crm.received.length === 2, 5000, "the second delivery");
    const after = crm.received[1];
    if (!after) throw new Error("no second delivery");
    expect(after.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    // The receiver's clock is the marketplace's, a day on: only the signature is what differs.
    setSystemTime(new Date(Date.now() + offsetMs));
    try {
      expect(verifiedPayload(fresh, after).data).toEqual({ order_id: "ord_10" });
      expect(() => new Webhook(old).verify(after.body, after.headers)).toThrow(/signature/i);
    } finally {
      setSystemTime();
    }
  });
});
