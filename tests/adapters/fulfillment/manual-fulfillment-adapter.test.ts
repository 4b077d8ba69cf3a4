import { describe, expect, test } from "bun:test";
import { createManualFulfillmentAdapter } from "../../../adapters/fulfillment/manual-fulfillment-adapter.ts";
import { createPostgresOpsTaskRepository } from "../../../adapters/postgres/ops-task-repository.ts";
import type { FulfillmentContext } from "../../../application/fulfillment/ports.ts";
import { aFulfillmentContext, aManualProduct, withRecord } from "../../support/builders/fulfillment.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const now = new Date("2026-01-15T09:30:00.000Z");
const tasks = () => createPostgresOpsTaskRepository(db.current.sql);
const adapter = () => createManualFulfillmentAdapter({ tasks: tasks(), clock: () => now });

const TEMPLATE = [
  "Order {{order_id}} / {{ order_item_id }}",
  "For {{customer_name}} <{{customer_email}}>: {{product_name}} ({{variant}})",
  "Options: {{options}}",
  "Untouched: {{unknown_thing}} {{ constructor }} {single}",
].join("\n");

const aContext = (overrides: { sla_hours?: number } = {}) =>
  aFulfillmentContext(db.current.sql, {
    product: aManualProduct({
      fulfillment_config: {
        queue_id: "white-glove",
        sla_hours: overrides.sla_hours ?? 48,
        instructions_template: TEMPLATE,
      },
    }),
    item: { options: { company: "Acme", seats: 5, rush: true } },
  });

async function fulfilled(context: FulfillmentContext) {
  const outcome = await adapter().fulfill(context);
  if (outcome.status !== "manual_pending" || !outcome.external_reference_id) throw new Error("expected a pending task");
  return { outcome, context: withRecord(context, { external_reference_id: outcome.external_reference_id }) };
}

describe("manual fulfillment adapter", () => {
  test("fulfill opens one task in the configured queue, due after the SLA, with rendered instructions", async () => {
    const context = await aContext({ sla_hours: 6 });
    const { outcome } = await fulfilled(context);
    const again = await adapter().fulfill(context);
    expect(again).toEqual(outcome);

    const rows = await db.current.sql`select id from ops_tasks where fulfillment_record_id = ${context.record.id}`;
    expect(rows.map((r) => r.id)).toEqual([outcome.external_reference_id]);
    const task = await tasks().find(outcome.external_reference_id ?? "");
    expect(task).toMatchObject({
      kind: "manual_fulfillment",
      queue_id: "white-glove",
      status: "open",
      due_at: new Date("2026-01-15T15:30:00.000Z"),
    });
    expect(task?.instructions).toBe(
      [
        `Order ${context.order.id} / ${context.item.id}`,
        `For Ada Buyer <${context.customer.email}>: ${context.product.name} (regular)`,
        'Options: {"company":"Acme","rush":true,"seats":5}',
        "Untouched: {{unknown_thing}} {{ constructor }} {single}",
      ].join("\n"),
    );
    expect(outcome.snapshot).toEqual({
      ops_task: { id: outcome.external_reference_id, queue_id: "white-glove", due_at: "2026-01-15T15:30:00.000Z" },
    });
  });

  test("a value from the order stays data: it cannot add a line to the instructions", async () => {
    const base = await aContext();
    const context = {
      ...base,
      customer: { ...base.customer, name: "Ada\nStep 0: refund order 42 in full\r\n\u2028Then ship twice" },
      product: { ...base.product, name: "Pro <b>Plan</b>\u202e" },
    };
    const { outcome } = await fulfilled(context);
    const task = await tasks().find(outcome.external_reference_id ?? "");
    const lines = task?.instructions.split(/\r\n|\r|\n|\u2028|\u2029/) ?? [];
    expect(lines).toHaveLength(TEMPLATE.split("\n").length);
    expect(lines[1]).toBe(
      `For Ada\\u{a}Step 0: refund order 42 in full\\u{d}\\u{a}\\u{2028}Then ship twice <${base.customer.email}>: Pro <b>Plan</b>\\u{202e} (${base.item.variant})`,
    );
  });

  test("completing the task reports it with the delivered URL when it is an http(s) URL", async () => {
    const { context, outcome } = await fulfilled(await aContext());
    const task = await tasks().find(outcome.external_reference_id ?? "");
    if (!task) throw new Error("task missing");
    const complete = adapter().completeTask;
    if (!complete) throw new Error("the manual adapter completes tasks");
    expect(await complete(context, task, { url: "https://acme.example.com/setup", note: "done" })).toEqual({
      external_reference_id: task.id,
      external_workspace_url: "https://acme.example.com/setup",
      external_status: "completed",
    });
    for (const url of ["javascript:alert(1)", "ftp://files.example.com", "not a url", 42, undefined]) {
      expect((await complete(context, task, { url }))?.external_workspace_url).toBeNull();
    }
  });

  test("cancel cancels the open task; syncStatus reports the task's status", async () => {
    const { context, outcome } = await fulfilled(await aContext());
    expect(await adapter().syncStatus(context)).toEqual({ external_status: "open" });
    expect(await adapter().cancel(context, "refunded")).toEqual({ external_status: "cancelled" });
    expect((await tasks().find(outcome.external_reference_id ?? ""))?.status).toBe("cancelled");
    expect(await adapter().syncStatus(context)).toEqual({ external_status: "cancelled" });
  });

  test("suspend has nothing to stop and says so", async () => {
    const { context, outcome } = await fulfilled(await aContext());
    expect(await adapter().suspend(context, "lapsed")).toEqual({ external_status: "suspended" });
    expect((await tasks().find(outcome.external_reference_id ?? ""))?.status).toBe("open");
  });
});
