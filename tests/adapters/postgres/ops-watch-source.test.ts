import { describe, expect, test } from "bun:test";
import { createPostgresOpsTaskRepository } from "../../../adapters/postgres/ops-task-repository.ts";
import { createPostgresOpsWatchSource } from "../../../adapters/postgres/ops-watch-source.ts";
import { aFulfillmentContext, aManualProduct } from "../../support/builders/fulfillment.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const watch = () => createPostgresOpsWatchSource(db.current.sql);

async function aDeadJob(kind: string, payload: object, updatedAgo = "1 minute") {
  const [row] = await db.current.sql<{ id: string }[]>`
    insert into jobs (kind, payload, state, attempts, last_error, updated_at)
    values (${kind}, ${db.current.sql.json(payload as never)}, 'dead', 8, 'HTTP 500', now() - ${updatedAgo}::interval)
    returning id::text`;
  return row?.id ?? "";
}

describe("what the operations watch finds in Postgres", () => {
  test("dead jobs of the last day, once each, until a redrive and a second death; ops emails flagged", async () => {
    const fulfill = await aDeadJob("fulfill", { fulfillment_id: "f" });
    const alertEmail = await aDeadJob("send_email", { email_id: "e", ops: true });
    const customerEmail = await aDeadJob("send_email", { email_id: "e2", ops: false });
    const old = await aDeadJob("fulfill", {}, "2 days");
    const found = await watch().unalertedDeadJobs(1000);
    const ours = found.filter((job) => [fulfill, alertEmail, customerEmail, old].includes(job.id));
    expect(ours.map((job) => [job.id, job.kind, job.ops_email])).toEqual([
      [fulfill, "fulfill", false],
      [alertEmail, "send_email", true],
      [customerEmail, "send_email", false],
    ]);
    expect(ours[0]).toMatchObject({ attempts: 8, last_error: "HTTP 500", dead_at: expect.any(Date) });
    for (const job of ours) await watch().markJobAlerted(job.id);
    expect((await watch().unalertedDeadJobs(1000)).map((job) => job.id)).not.toContain(fulfill);
    // Redriven, then dead again: a new death, alerted again.
    await db.current.sql`update jobs set updated_at = now() + interval '1 second' where id = ${fulfill}::bigint`;
    expect((await watch().unalertedDeadJobs(1000)).map((job) => job.id)).toContain(fulfill);
  });

  test("open tasks past their due time, never alerted twice; completed or not yet due ones are not", async () => {
    const tasks = createPostgresOpsTaskRepository(db.current.sql);
    const record = async () => (await aFulfillmentContext(db.current.sql, { product: aManualProduct() })).record.id;
    const draft = async (due_at: Date) => ({
      fulfillment_record_id: await record(),
      kind: "manual_fulfillment" as const,
      queue_id: "onboarding",
      instructions: "Call the customer",
      due_at,
    });
    const now = new Date();
    const late = await tasks.open(await draft(new Date(now.getTime() - 60_000)));
    const early = await tasks.open(await draft(new Date(now.getTime() + 3_600_000)));
    const found = (await watch().unalertedOverdueTasks(now, 1000)).map((task) => task.id);
    expect(found).toContain(late.id);
    expect(found).not.toContain(early.id);
    await watch().markTaskAlerted(late.id);
    expect((await watch().unalertedOverdueTasks(now, 1000)).map((task) => task.id)).not.toContain(late.id);
  });
});
