import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createJobWorker, type JobWorker } from "../../../adapters/jobs/job-worker.ts";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import { createPostgresEventPublisher } from "../../../adapters/postgres/event-publisher.ts";
import { createPostgresWebhookDeliveryRepository } from "../../../adapters/postgres/webhook-delivery-repository.ts";
import { createPostgresWebhookUnitOfWork } from "../../../adapters/postgres/webhook-unit-of-work.ts";
import { createSecretCipher } from "../../../adapters/secrets/secret-cipher.ts";
import { makeDeliverWebhook } from "../../../application/outgoing-webhooks/deliver-webhook.ts";
import { makeWebhookFanout } from "../../../application/outgoing-webhooks/fan-out.ts";
import { webhookDeliveryJob, webhookFanoutJob } from "../../../application/outgoing-webhooks/jobs.ts";
import type { WebhookAnswer, WebhookMessage } from "../../../application/outgoing-webhooks/ports.ts";
import type { JobHandler } from "../../../application/shared/jobs.ts";
import type { RetrySchedule } from "../../../domain/outgoing-webhooks/webhook-delivery.ts";
import { createLogger } from "../../../kit/logger.ts";
import { createTestMarketplace, TEST_SECRETS_KEY } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually, FAST_JOBS } from "../../support/e2e.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { call, expectProblemShape } from "../../support/http.ts";

/** One retry, 10 ms after the first attempt. */
const SCHEDULE: RetrySchedule = [10];
const OK: WebhookAnswer = { kind: "answered", status: 200, excerpt: "", retry_after_ms: null };

const db = useTestDatabase();
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
const workers: JobWorker[] = [];

// The marketplace's own worker stays off: each test runs the delivery jobs on a worker of its own.
beforeAll(async () => {
  marketplace = createTestMarketplace(
    db.current.sql,
    {},
    { env: { ...FAST_JOBS, OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms" } },
  );
  admin = await tokenFor("admin");
  db.onTeardown(() => marketplace.close());
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ timeoutMs: 1000 })));
  await db.current.sql`delete from webhook_endpoints`;
  await db.current.sql`delete from jobs`;
});

/** The real fan-out and delivery jobs, sending through `send` and opening secrets with `secretsKey`. */
function deliveryHandlers(send: (message: WebhookMessage) => WebhookAnswer, secretsKey = TEST_SECRETS_KEY) {
  const { sql } = db.current;
  const cipher = createSecretCipher(secretsKey);
  const uow = createPostgresWebhookUnitOfWork(sql, {
    jobsFor: (tx) => createPostgresJobScheduler({ sql: tx, wake: "notify" }),
    cipher,
  });
  return {
    fanOut: makeWebhookFanout({ uow, retrySchedule: SCHEDULE }),
    deliver: makeDeliverWebhook({
      deliveries: createPostgresWebhookDeliveryRepository(sql, cipher),
      sender: { send: async (message) => send(message) },
      retrySchedule: SCHEDULE,
      clock: () => new Date(),
      log: createRecordingLog(),
    }),
  };
}

function startWorker(handlers: {
  fanOut: JobHandler<typeof webhookFanoutJob>;
  deliver: JobHandler<typeof webhookDeliveryJob>;
}) {
  const worker = createJobWorker({
    sql: db.current.sql,
    types: { [webhookFanoutJob.kind]: webhookFanoutJob, [webhookDeliveryJob.kind]: webhookDeliveryJob },
    handlers: { [webhookFanoutJob.kind]: handlers.fanOut, [webhookDeliveryJob.kind]: handlers.deliver },
    wake: { subscribe: () => () => {} },
    logger: createLogger({ level: "silent" }),
    pollIntervalMs: 20,
    backoff: { baseMs: 10, maxMs: 20 },
  });
  workers.push(worker);
  worker.start();
  return worker;
}

async function anEndpointWithAnEvent(): Promise<string> {
  const created = await call(marketplace.app, "POST", "/api/admin/webhook-endpoints", {
    token: admin,
    body: { url: "https://93.184.215.14/hooks", events: ["order.paid"] },
  });
  expect(created.status).toBe(201);
  await db.current.sql.begin(async (tx) => {
    const jobs = createPostgresJobScheduler({ sql: tx, wake: "notify" });
    await createPostgresEventPublisher(tx, jobs).publish("order.paid", { order_id: "ord_1" });
  });
  return created.body.id;
}

interface DeliveryBody {
  id: string;
  state: string;
  attempts: number;
}

async function theDelivery(endpointId: string, state?: string): Promise<DeliveryBody | undefined> {
  const listed = await call(marketplace.app, "GET", `/api/admin/webhook-endpoints/${endpointId}/deliveries`, {
    token: admin,
  });
  const [delivery] = listed.body.items as DeliveryBody[];
  return state === undefined || delivery?.state === state ? delivery : undefined;
}

const redeliver = (endpointId: string, deliveryId: string) =>
  call(marketplace.app, "POST", `/api/admin/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/redeliver`, {
    token: admin,
  });

const deliveryJobs = () =>
  db.current.sql<{ state: string; dedupe_key: string }[]>`
    select state, dedupe_key from jobs where kind = ${webhookDeliveryJob.kind} order by id`;

describe("redelivering an outgoing webhook", () => {
  test("while the job of the run before is still finishing, the redelivery gets a job of its own and is sent", async () => {
    const sent: WebhookMessage[] = [];
    const handlers = deliveryHandlers((message) => {
      sent.push(message);
      return OK;
    });
    const verdictWritten = Promise.withResolvers<void>();
    const finish = Promise.withResolvers<void>();
    startWorker({
      fanOut: handlers.fanOut,
      // The first run has written `succeeded` but its job is not marked done yet.
      deliver: async (payload, job) => {
        await handlers.deliver(payload, job);
        if (sent.length === 1) {
          verdictWritten.resolve();
          await finish.promise;
        }
      },
    });
    const endpointId = await anEndpointWithAnEvent();
    await verdictWritten.promise;
    const delivered = await eventually(() => theDelivery(endpointId, "succeeded"), 3000, "the first run's verdict");
    expect((await deliveryJobs()).map((job) => job.state)).toEqual(["running"]);

    const redelivered = await redeliver(endpointId, delivered.id);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id: delivered.id, state: "pending", attempts: 0 });
    finish.resolve();

    const again = await eventually(() => theDelivery(endpointId, "succeeded"), 3000, "the redelivery");
    expect(again).toMatchObject({ id: delivered.id, attempts: 1 });
    expect(sent.map((message) => message.id)).toEqual([`msg_${delivered.id}`, `msg_${delivered.id}`]);
    await eventually(async () => (await deliveryJobs()).every((job) => job.state === "done"), 3000, "both jobs done");
    expect((await deliveryJobs()).map((job) => job.dedupe_key)).toEqual([
      `webhook:${delivered.id}:0`,
      `webhook:${delivered.id}:1`,
    ]);
    expect((await redeliver(endpointId, delivered.id)).status).toBe(202);
  });

  test("left pending by a job that died without a verdict (its secret no longer opens), it can be sent again", async () => {
    const sent: WebhookMessage[] = [];
    const record = (message: WebhookMessage) => {
      sent.push(message);
      return OK;
    };
    const stale = startWorker(deliveryHandlers(record, "a secrets key the endpoint was not sealed with"));
    const endpointId = await anEndpointWithAnEvent();
    await eventually(async () => (await deliveryJobs())[0]?.state === "dead", 3000, "the job dead-lettered");
    await stale.stop();
    const stuck = await theDelivery(endpointId, "pending");
    if (!stuck) throw new Error("the delivery is not pending");

    const redelivered = await redeliver(endpointId, stuck.id);
    expect(redelivered.status).toBe(202);
    startWorker(deliveryHandlers(record));
    await eventually(() => theDelivery(endpointId, "succeeded"), 3000, "the redelivery");
    expect(sent).toHaveLength(1);
  });

  test("a delivery whose job is still running is still being tried: 409, and no second job", async () => {
    const handlers = deliveryHandlers(() => OK);
    const sending = Promise.withResolvers<void>();
    const answer = Promise.withResolvers<void>();
    startWorker({
      fanOut: handlers.fanOut,
      deliver: async (payload, job) => {
        sending.resolve();
        await answer.promise;
        await handlers.deliver(payload, job);
      },
    });
    const endpointId = await anEndpointWithAnEvent();
    await sending.promise;
    const pending = await theDelivery(endpointId, "pending");
    if (!pending) throw new Error("no pending delivery");
    expectProblemShape(await redeliver(endpointId, pending.id), 409, "WEBHOOK_DELIVERY_PENDING");
    expect((await deliveryJobs()).map((job) => job.state)).toEqual(["running"]);
    answer.resolve();
    await eventually(() => theDelivery(endpointId, "succeeded"), 3000, "the delivery");
    expect(await deliveryJobs()).toHaveLength(1);
  });
});
