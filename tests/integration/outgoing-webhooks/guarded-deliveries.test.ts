import { beforeAll, expect, test } from "bun:test";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import { createPostgresEventPublisher } from "../../../adapters/postgres/event-publisher.ts";
import { createPostgresWebhookEndpointRepository } from "../../../adapters/postgres/webhook-endpoint-repository.ts";
import { createSecretCipher } from "../../../adapters/secrets/secret-cipher.ts";
import { createTestMarketplace, TEST_SECRETS_KEY } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually, FAST_JOBS } from "../../support/e2e.ts";
import { call } from "../../support/http.ts";
import { webhookReceiver } from "../../support/webhook-receiver.ts";

const db = useTestDatabase();
const receiver = webhookReceiver();
let marketplace: ReturnType<typeof createTestMarketplace>;

beforeAll(() => {
  marketplace = createTestMarketplace(
    db.current.sql,
    {},
    {
      env: {
        ...FAST_JOBS,
        // The provider switch alone, as `npm start` sets it, leaves outgoing webhooks guarded.
        ALLOW_PRIVATE_PROVIDER_URLS: "true",
        ALLOW_PRIVATE_WEBHOOK_URLS: "false",
        OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms,20ms,40ms",
      },
    },
  );
  marketplace.worker.start();
  db.onTeardown(async () => {
    await marketplace.worker.stop({ timeoutMs: 2000 });
    receiver.stop();
    await marketplace.close();
  });
});

test("an endpoint whose address is not public when it is called is never connected to: dead at once", async () => {
  // Saved before the address turned private (or written around the API): the connect-time guard still refuses it.
  const endpoint = await createPostgresWebhookEndpointRepository(
    db.current.sql,
    createSecretCipher(TEST_SECRETS_KEY),
  ).create({
    url: receiver.url,
    events: ["order.paid"],
    description: null,
    secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
  });
  await db.current.sql.begin(async (tx) => {
    const jobs = createPostgresJobScheduler({ sql: tx, wake: "notify" });
    await createPostgresEventPublisher(tx, jobs).publish("order.paid", { order_id: "ord_private" });
  });
  const admin = await tokenFor("admin");
  const dead = await eventually(
    async () => {
      const listed = await call(marketplace.app, "GET", `/api/admin/webhook-endpoints/${endpoint.id}/deliveries`, {
        token: admin,
      });
      return listed.body.items.find((delivery: { state: string }) => delivery.state === "dead");
    },
    5000,
    "a dead delivery",
  );
  expect(dead).toMatchObject({ attempts: 1, last_status_code: null });
  expect(dead.last_error).toContain("127.0.0.1 is not a public address");
  expect(receiver.received).toHaveLength(0);
});
