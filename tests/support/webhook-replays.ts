import { expect } from "bun:test";
import { createPostgresJobScheduler } from "../../adapters/jobs/postgres-job-scheduler.ts";
import { createPostgresEventPublisher } from "../../adapters/postgres/event-publisher.ts";
import type { OutgoingEventType } from "../../application/outgoing-webhooks/ports.ts";
import type { TestDatabase } from "./database.ts";
import { adminToken, type E2e, eventually, http } from "./e2e.ts";
import { type ReceivedWebhook, verifiedPayload, type WebhookReceiver } from "./webhook-receiver.ts";

/**
 * Publishes `count` events of `type`, each in a transaction of its own (so each has a creation
 * time of its own), as a paid order or a renewal does: the marketplace's worker fans them out.
 * Their `data.seq` is 0, 1, 2... in creation order.
 */
export async function publishEvents(db: TestDatabase, type: OutgoingEventType, count: number): Promise<void> {
  for (let seq = 0; seq < count; seq += 1) {
    await db.sql.begin((tx) =>
      createPostgresEventPublisher(tx, createPostgresJobScheduler({ sql: tx, wake: "notify" })).publish(type, { seq }),
    );
  }
}

/** A receiver's endpoint, subscribed to one type only, so that tests of other types leave it alone. */
export async function endpointFor(e2e: E2e, receiver: WebhookReceiver, type: OutgoingEventType) {
  const created = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
    token: await adminToken(e2e),
    body: { url: receiver.url, events: [type] },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, secret: created.body.secret as string };
}

export interface DeliveryBody {
  id: string;
  event_id: string;
  webhook_id: string;
  state: string;
  replay_id: string | null;
}

/** Every delivery of the endpoint (or of one replay), through the admin list, page by page. */
export async function deliveriesOf(e2e: E2e, endpointId: string, query = ""): Promise<DeliveryBody[]> {
  const all: DeliveryBody[] = [];
  let cursor: string | null = null;
  do {
    const path = `/api/admin/webhook-endpoints/${endpointId}/deliveries?limit=100${query}${cursor ? `&cursor=${cursor}` : ""}`;
    const page = await http(e2e.url, "GET", path, { token: await adminToken(e2e) });
    expect(page.status).toBe(200);
    all.push(...page.body.items);
    cursor = page.body.next_cursor;
  } while (cursor);
  return all;
}

/** Waits until each of the endpoint's `count` deliveries has a verdict. */
export async function allSettled(e2e: E2e, endpointId: string, count: number): Promise<DeliveryBody[]> {
  return eventually(
    async () => {
      const deliveries = await deliveriesOf(e2e, endpointId);
      return deliveries.length === count && deliveries.every((d) => d.state !== "pending") && deliveries;
    },
    10_000,
    `${count} deliveries settled`,
  );
}

export async function replayOf(e2e: E2e, endpointId: string, replayId: string) {
  const found = await http(e2e.url, "GET", `/api/admin/webhook-endpoints/${endpointId}/replays/${replayId}`, {
    token: await adminToken(e2e),
  });
  expect(found.status).toBe(200);
  return found.body;
}

/** The replay once it has completed and none of its deliveries is still being tried. */
export function replayFinished(e2e: E2e, endpointId: string, replayId: string, timeoutMs: number) {
  return eventually(
    async () => {
      const replay = await replayOf(e2e, endpointId, replayId);
      return replay.status === "completed" && replay.pending === 0 && replay;
    },
    timeoutMs,
    "the replay to finish",
  );
}

/** The requests' events, verified with the endpoint's secret, in the order they arrived: their `seq` and `webhook-id`. */
export function arrivals(secret: string, requests: readonly ReceivedWebhook[]) {
  return requests.map((request) => ({
    seq: verifiedPayload(secret, request).data.seq as number,
    webhookId: request.headers["webhook-id"],
  }));
}
