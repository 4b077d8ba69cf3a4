import { describe, expect, test } from "bun:test";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import { createPostgresWebhookDeliveryRepository } from "../../../adapters/postgres/webhook-delivery-repository.ts";
import { createPostgresWebhookEndpointRepository } from "../../../adapters/postgres/webhook-endpoint-repository.ts";
import { createPostgresWebhookReplayRepository } from "../../../adapters/postgres/webhook-replay-repository.ts";
import { createPostgresWebhookUnitOfWork } from "../../../adapters/postgres/webhook-unit-of-work.ts";
import { createSecretCipher } from "../../../adapters/secrets/secret-cipher.ts";
import type { WebhookAnswer, WebhookMessage } from "../../../application/outgoing-webhooks/ports.ts";
import { makeRunWebhookReplay } from "../../../application/outgoing-webhooks/run-replay.ts";
import { TEST_SECRETS_KEY } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun } from "../../support/jobs.ts";

const OK: WebhookAnswer = { kind: "answered", status: 200, excerpt: "", retry_after_ms: null };

const db = useTestDatabase();

/**
 * An endpoint, `count` events made a millisecond apart and a running replay of them, with the real
 * replay job over PostgreSQL. `hooks` may make reading a delivery fail, or act during a send.
 */
async function aReplayOf(
  count: number,
  hooks: { outgoing?: (call: number) => void; duringSend?: (sends: number) => Promise<void> } = {},
) {
  const { sql } = db.current;
  const cipher = createSecretCipher(TEST_SECRETS_KEY);
  await sql`delete from webhook_endpoints`;
  await sql`delete from outgoing_events`;
  const endpoint = await createPostgresWebhookEndpointRepository(sql, cipher).create({
    url: "https://hooks.example.com/in",
    events: ["order.paid"],
    description: null,
    secret: "whsec_c2VjcmV0",
  });
  for (let seq = 0; seq < count; seq += 1) {
    await sql`insert into outgoing_events (type, data, created_at)
              values ('order.paid', ${sql.json({ seq })}, now() - ${`${count - seq} ms`}::interval)`;
  }
  const replays = createPostgresWebhookReplayRepository(sql);
  const window = { since: new Date(Date.now() - 60_000), until: new Date(Date.now() + 1_000) };
  const replay = await replays.start({ endpoint_id: endpoint.id, ...window, only_failed: false });
  if (!replay) throw new Error("no replay");
  const deliveries = createPostgresWebhookDeliveryRepository(sql, cipher);
  const sent: number[] = [];
  let reads = 0;
  const run = makeRunWebhookReplay({
    deliveries: {
      outgoing: async (id) => {
        reads += 1;
        hooks.outgoing?.(reads);
        return deliveries.outgoing(id);
      },
      recordAttempt: deliveries.recordAttempt,
    },
    sender: {
      async send(message: WebhookMessage) {
        sent.push((JSON.parse(message.body) as { data: { seq: number } }).data.seq);
        await hooks.duringSend?.(sent.length);
        return OK;
      },
    },
    retrySchedule: [10],
    clock: () => new Date(),
    log: createRecordingLog(),
    replays,
    uow: createPostgresWebhookUnitOfWork(sql, {
      jobsFor: (tx) => createPostgresJobScheduler({ sql: tx, wake: "notify" }),
      cipher,
    }),
    perSecond: 1_000,
    pause: async () => {},
  });
  const step = (number: number) => run({ replay_id: replay.id, step: number }, firstRun());
  const states = async () =>
    (
      await sql<{ seq: number; state: string }[]>`
        select (event.data->>'seq')::int as seq, delivery.state
        from webhook_deliveries delivery join outgoing_events event on event.id = delivery.event_id
        where delivery.endpoint_id = ${endpoint.id}
        order by 1`
    ).map((row) => `${row.seq}:${row.state}`);
  return { replay, endpoint, replays, sent, step, states };
}

describe("the replay job's steps over PostgreSQL", () => {
  test("an event whose step failed mid-send is sent when the step runs again, before the replay completes", async () => {
    const { replay, endpoint, replays, sent, step, states } = await aReplayOf(3, {
      outgoing: (call) => {
        if (call === 2) throw new Error("connection reset reading the delivery");
      },
    });
    await expect(step(0)).rejects.toThrow("connection reset");
    // The queue runs the step again.
    await step(0);
    expect(sent).toEqual([0, 1, 2]);
    expect(await states()).toEqual(["0:succeeded", "1:succeeded", "2:succeeded"]);
    expect(await replays.find(endpoint.id, replay.id)).toMatchObject({ status: "completed", processed: 3, sent: 3 });
  });

  test("a run of a step that another run has taken over stops without sending", async () => {
    let other: Promise<void> | undefined;
    const setUp = await aReplayOf(4, {
      // While the first run sends its first event, a second run of the same step starts.
      duringSend: async (sends) => {
        if (sends === 1) other = setUp.step(0);
      },
    });
    await setUp.step(0);
    await other;
    // The first event may arrive twice (the second run took it over mid-send); no later one does.
    expect(setUp.sent).toEqual([0, 0, 1, 2, 3]);
    expect(await setUp.replays.find(setUp.endpoint.id, setUp.replay.id)).toMatchObject({
      status: "completed",
      processed: 4,
      sent: 4,
    });
  });

  test("a cancelled replay's step sends nothing more", async () => {
    const setUp = await aReplayOf(3, {
      duringSend: async (sends) => {
        if (sends === 1) await setUp.replays.cancel(setUp.endpoint.id, setUp.replay.id, new Date());
      },
    });
    await setUp.step(0);
    expect(setUp.sent).toEqual([0]);
    expect(await setUp.replays.find(setUp.endpoint.id, setUp.replay.id)).toMatchObject({ status: "cancelled" });
  });
});
