import { describe, expect, test } from "bun:test";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import type { Queryable } from "../../../adapters/postgres/database.ts";
import {
  createPostgresEmailStore,
  createPostgresStandaloneEmailQueue,
} from "../../../adapters/postgres/email-queue.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const outbox = () =>
  createPostgresStandaloneEmailQueue(
    db.current.sql,
    (tx: Queryable) => createPostgresJobScheduler({ sql: tx, wake: "notify" }),
    "shop.example",
  );

const anEmail = (key: string) => ({
  key,
  template: "fulfillment.ready" as const,
  to: "ada@example.com",
  data: { customer_name: "Ada" },
});

describe("emails in Postgres", () => {
  test("one email and one sending job per key, however often and however concurrently it is queued", async () => {
    const key = `notification:${crypto.randomUUID()}`;
    await Promise.all([1, 2, 3, 4].map(() => outbox().queue(anEmail(key))));
    await outbox().queue(anEmail(key));
    const emails = await db.current.sql<{ id: string; message_id: string; state: string }[]>`
      select id, message_id, state from emails where idempotency_key = ${key}`;
    expect(emails).toHaveLength(1);
    expect(emails[0]?.message_id).toMatch(/^<[0-9a-f-]{36}@shop\.example>$/);
    const jobs = await db.current
      .sql`select payload from jobs where kind = 'send_email' and payload->>'email_id' = ${emails[0]?.id ?? ""}`;
    expect(jobs.map((job) => job.payload)).toEqual([{ email_id: emails[0]?.id, ops: false }]);
  });

  test("the store reads it back, marks it sent once, and a sent email is never marked dead", async () => {
    const key = `notification:${crypto.randomUUID()}`;
    await outbox().queue({ ...anEmail(key), template: "ops.job_dead" });
    const [row] = await db.current.sql<{ id: string }[]>`select id from emails where idempotency_key = ${key}`;
    const store = createPostgresEmailStore(db.current.sql);
    const found = await store.find(row?.id ?? "");
    expect(found).toMatchObject({
      key,
      template: "ops.job_dead",
      to: "ada@example.com",
      data: { customer_name: "Ada" },
      state: "pending",
    });
    await store.markSent(found?.id ?? "");
    await store.markDead(found?.id ?? "", "late failure");
    expect(await store.find(found?.id ?? "")).toMatchObject({ state: "sent" });
    expect(await store.find("not-a-uuid")).toBeUndefined();
    const [job] = await db.current.sql`select payload from jobs where payload->>'email_id' = ${found?.id ?? ""}`;
    expect(job?.payload).toMatchObject({ ops: true });
  });

  test("a reset link is erased from the stored email once it is sent or dead; the other values stay", async () => {
    const store = createPostgresEmailStore(db.current.sql);
    const ids: string[] = [];
    for (const outcome of ["sent", "dead"] as const) {
      const key = `password-reset:${crypto.randomUUID()}`;
      await outbox().queue({
        key,
        template: "account.password_reset",
        to: "ada@example.com",
        data: {
          customer_name: "Ada",
          reset_url: "https://shop.example/account/reset-password?token=t",
          valid_for: "1 hour",
        },
      });
      const [row] = await db.current.sql<{ id: string }[]>`select id from emails where idempotency_key = ${key}`;
      const id = row?.id ?? "";
      ids.push(id);
      expect((await store.find(id))?.data.reset_url).toContain("token=t");
      if (outcome === "sent") await store.markSent(id);
      else await store.markDead(id, "refused");
    }
    for (const id of ids) {
      expect((await store.find(id))?.data).toEqual({ customer_name: "Ada", valid_for: "1 hour" });
    }
  });
});
