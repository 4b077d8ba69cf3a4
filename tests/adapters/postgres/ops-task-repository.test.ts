import { describe, expect, test } from "bun:test";
import { createPostgresOpsTaskRepository } from "../../../adapters/postgres/ops-task-repository.ts";
import type { OpsTask } from "../../../application/fulfillment/ports.ts";
import { aFulfillmentContext, aManualProduct } from "../../support/builders/fulfillment.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const tasks = () => createPostgresOpsTaskRepository(db.current.sql);
const due = new Date("2026-03-01T12:00:00.000Z");

async function aRecord() {
  return (await aFulfillmentContext(db.current.sql, { product: aManualProduct() })).record.id;
}

const draft = (recordId: string, overrides: Partial<Pick<OpsTask, "kind" | "queue_id" | "instructions">> = {}) => ({
  fulfillment_record_id: recordId,
  kind: "manual_fulfillment" as const,
  queue_id: "onboarding",
  instructions: "Do the thing",
  due_at: due,
  ...overrides,
});

async function anAdmin(): Promise<string> {
  const [row] = await db.current.sql<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values (${`ops-${crypto.randomUUID()}@example.com`}, 'Ops', 'admin', 'x') returning id`;
  return row?.id ?? "";
}

describe("postgres ops task repository", () => {
  test("open returns the already-open task of the record and kind instead of a second one", async () => {
    const recordId = await aRecord();
    const first = await tasks().open(draft(recordId));
    expect(first).toMatchObject({ status: "open", queue_id: "onboarding", instructions: "Do the thing", due_at: due });
    const again = await tasks().open(draft(recordId, { instructions: "Other words" }));
    expect(again.id).toBe(first.id);
    expect(again.instructions).toBe("Do the thing");

    const concurrent = await Promise.all([1, 2, 3].map(() => tasks().open(draft(recordId))));
    expect(new Set(concurrent.map((t) => t.id))).toEqual(new Set([first.id]));

    const otherKind = await tasks().open(draft(recordId, { kind: "provisioning" }));
    expect(otherKind.id).not.toBe(first.id);
  });

  test("complete records the result and who, once; a completed task no longer blocks a new one", async () => {
    const recordId = await aRecord();
    const admin = await anAdmin();
    const task = await tasks().open(draft(recordId));
    const done = await tasks().complete(task.id, admin, { url: "https://acme.example.com", note: "done" });
    expect(done).toMatchObject({
      id: task.id,
      status: "completed",
      result: { url: "https://acme.example.com", note: "done" },
    });
    expect(done?.completed_at).toBeInstanceOf(Date);
    const [row] = await db.current.sql`select completed_by from ops_tasks where id = ${task.id}`;
    expect(row?.completed_by).toBe(admin);

    expect(await tasks().complete(task.id, admin, {})).toBeUndefined();
    expect((await tasks().find(task.id))?.result).toEqual({ url: "https://acme.example.com", note: "done" });
    expect((await tasks().open(draft(recordId))).id).not.toBe(task.id);
  });

  test("cancelFor cancels the record's open tasks only", async () => {
    const [recordId, otherId] = [await aRecord(), await aRecord()];
    const a = await tasks().open(draft(recordId));
    const b = await tasks().open(draft(recordId, { kind: "provisioning" }));
    const other = await tasks().open(draft(otherId));
    await tasks().cancelFor(recordId);
    expect((await tasks().find(a.id))?.status).toBe("cancelled");
    expect((await tasks().find(b.id))?.status).toBe("cancelled");
    expect((await tasks().find(other.id))?.status).toBe("open");
  });

  test("find answers undefined for an unknown or malformed id", async () => {
    expect(await tasks().find(crypto.randomUUID())).toBeUndefined();
    expect(await tasks().find("not-a-uuid")).toBeUndefined();
    expect(await tasks().complete("not-a-uuid", "nobody", {})).toBeUndefined();
  });

  test("list filters by status and queue, newest first, page by page", async () => {
    const queue = `queue-${crypto.randomUUID().slice(0, 8)}`;
    const opened: OpsTask[] = [];
    for (let i = 0; i < 5; i++) {
      const task = await tasks().open(draft(await aRecord(), { queue_id: queue }));
      // The third and fourth are created within one millisecond: a page boundary must not fall between them.
      const at = i === 3 ? "2026-02-01T10:00:02.000400Z" : `2026-02-01T10:00:0${i}.000000Z`;
      await db.current.sql`update ops_tasks set created_at = ${at}::timestamptz where id = ${task.id}`;
      opened.push(task);
    }
    await tasks().cancelFor(opened[1]?.fulfillment_record_id ?? "");

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await tasks().list({ queue_id: queue }, { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((t) => t.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const [third, fourth] = [opened[2]?.id ?? "", opened[3]?.id ?? ""];
    const sameMillisecond = third > fourth ? [third, fourth] : [fourth, third];
    expect(seen).toEqual([opened[4]?.id ?? "", ...sameMillisecond, opened[1]?.id ?? "", opened[0]?.id ?? ""]);

    const open = await tasks().list({ queue_id: queue, status: "open" }, { limit: 10 });
    expect(open.items.map((t) => t.id)).toEqual(seen.filter((id) => id !== opened[1]?.id));
    const cancelled = await tasks().list({ queue_id: queue, status: "cancelled" }, { limit: 10 });
    expect(cancelled.items.map((t) => t.id)).toEqual([opened[1]?.id ?? ""]);
    expect(cancelled.next_cursor).toBeNull();
  });

  test("a cursor we did not issue is a validation failure", async () => {
    await expect(tasks().list({}, { limit: 2, cursor: "garbage" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });
});
