import { describe, expect, test } from "bun:test";
import { fulfillJob } from "../../../application/fulfillment/jobs.ts";
import { makeManageFulfillments } from "../../../application/fulfillment/manage-fulfillments.ts";
import type { OpsTask } from "../../../application/fulfillment/ports.ts";
import {
  FulfillmentNotFound,
  FulfillmentStateConflict,
  InstallationDomainTaken,
  TaskNotFound,
} from "../../../domain/fulfillment/errors.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { createInMemoryFulfillmentContextLoader } from "../../support/fakes/in-memory-fulfillment-context-loader.ts";
import { createInMemoryOpsTaskRepository } from "../../support/fakes/in-memory-ops-task-repository.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingAdapters, type OptionalMethods } from "../../support/fakes/recording-fulfillment-adapter.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

function setup(optional?: OptionalMethods) {
  const uow = createInMemoryUnitOfWork();
  const adapters = createRecordingAdapters(optional);
  const tasks = createInMemoryOpsTaskRepository();
  const manage = makeManageFulfillments({
    adapters,
    fulfillments: uow.fulfillments,
    contexts: createInMemoryFulfillmentContextLoader(),
    tasks,
    uow,
    log: createRecordingLog(),
  });
  const openTask = (recordId: string): Promise<OpsTask> =>
    tasks.open({
      fulfillment_record_id: recordId,
      kind: "manual_fulfillment",
      queue_id: "onboarding",
      instructions: "Set it up.",
      due_at: new Date("2026-01-17T00:00:00.000Z"),
    });
  const { fulfillments, outbox, jobs, audit } = uow;
  return { fulfillments, outbox, jobs, audit, adapters, tasks, manage, openTask, saas: adapters.multitenant_saas };
}

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

describe("retrying a failed fulfillment", () => {
  test("a failed record goes back to the queue with one fulfill job", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "failed", last_error: "boom" });

    const moved = await t.manage.adminRetry(record.id, ADMIN);

    expect(moved.status).toBe("queued");
    expect(t.jobs.all()).toEqual([
      { kind: fulfillJob.kind, payload: { fulfillment_id: record.id }, dedupeKey: `fulfill:${record.id}` },
    ]);
  });

  test("only a failed record can be retried, so a second retry is a conflict and queues nothing", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "failed" });
    await t.manage.adminRetry(record.id, ADMIN);

    await expect(t.manage.adminRetry(record.id, ADMIN)).rejects.toBeInstanceOf(FulfillmentStateConflict);
    expect(t.jobs.all()).toHaveLength(1);
  });

  test("a customer cannot see, let alone retry, another customer's record", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "failed" });

    await expect(t.manage.retry(record.id, crypto.randomUUID())).rejects.toBeInstanceOf(FulfillmentNotFound);
    expect(t.fulfillments.get(record.id).status).toBe("failed");
  });
});

describe("the customer's input", () => {
  test("a domain moves an awaiting record back to processing, normalized, with a fulfill job", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "awaiting_customer", payload_snapshot: { variant: "monthly" } });

    await t.manage.supplyInput(record.id, record.customer_id, { domain: "  Shop.Example.COM " });

    expect(t.fulfillments.get(record.id)).toMatchObject({
      status: "processing",
      payload_snapshot: { variant: "monthly", customer_input: { domain: "shop.example.com" } },
    });
    expect(t.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
  });

  test("something that is not a domain name is refused at /domain and changes nothing", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "awaiting_customer" });

    const refused = await t.manage.supplyInput(record.id, record.customer_id, { domain: "localhost" }).catch((e) => e);

    expect(refused).toBeInstanceOf(ValidationFailed);
    expect(refused.errors).toEqual([expect.objectContaining({ path: "/domain", code: "INVALID_DOMAIN" })]);
    expect(t.fulfillments.get(record.id).status).toBe("awaiting_customer");
    expect(t.jobs.all()).toEqual([]);
  });

  test("the driver's own check (a domain in use) refuses before anything moves", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "awaiting_customer" });
    const asked: unknown[] = [];
    Object.assign(t.adapters[record.driver], {
      async acceptCustomerInput(_context: unknown, input: unknown) {
        asked.push(input);
        throw new InstallationDomainTaken();
      },
    });

    const refused = await t.manage
      .supplyInput(record.id, record.customer_id, { domain: " Taken.Example.com. " })
      .catch((e) => e);

    expect(refused).toBeInstanceOf(InstallationDomainTaken);
    expect(asked).toEqual([{ domain: "taken.example.com" }]);
    expect(t.fulfillments.get(record.id).status).toBe("awaiting_customer");
    expect(t.jobs.all()).toEqual([]);
  });

  test.each(["shop\nexample.com", "shop.example.com\u0000", "x,eve.example.com", "shop example.com"])(
    "%j is not a domain name: refused at /domain",
    async (domain) => {
      const t = setup();
      const record = t.fulfillments.add({ status: "awaiting_customer" });
      const refused = await t.manage.supplyInput(record.id, record.customer_id, { domain }).catch((e) => e);
      expect(refused).toBeInstanceOf(ValidationFailed);
      expect(refused.errors).toEqual([expect.objectContaining({ path: "/domain", code: "INVALID_DOMAIN" })]);
    },
  );

  test("a record that is not waiting for the customer is a conflict", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "active" });

    await expect(
      t.manage.supplyInput(record.id, record.customer_id, { domain: "shop.example.com" }),
    ).rejects.toBeInstanceOf(FulfillmentStateConflict);
    expect(t.jobs.all()).toEqual([]);
  });
});

describe("actions on a delivery", () => {
  test("cancel asks the adapter, closes open tasks and ends the record with the external status", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "manual_pending", external_reference_id: "task-ref" });
    const task = await t.openTask(record.id);

    const cancelled = await t.manage.act(record.id, "cancel", "refunded");

    expect(cancelled).toMatchObject({ status: "cancelled", external_status: "cancelled" });
    expect(t.saas.calls).toEqual([{ method: "cancel", recordId: record.id, detail: "refunded" }]);
    expect((await t.tasks.find(task.id))?.status).toBe("cancelled");
  });

  test("cancelling a queued record that reached no one leaves the adapter alone", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "queued" });

    expect((await t.manage.act(record.id, "cancel", "refunded")).status).toBe("cancelled");
    expect(t.saas.calls).toEqual([]);
  });

  test("cancelling a cancelled record does nothing", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "cancelled" });

    expect(await t.manage.act(record.id, "cancel", "again")).toEqual(record);
    expect(t.saas.calls).toEqual([]);
  });

  test("suspend and sync reach the adapter and record what it reports", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "active", external_status: "active" });

    expect((await t.manage.act(record.id, "suspend", "lapsed")).external_status).toBe("suspended");
    expect((await t.manage.act(record.id, "sync", "tick")).external_status).toBe("active");
    expect(t.saas.calls.map((call) => call.method)).toEqual(["suspend", "syncStatus"]);
    expect(t.fulfillments.get(record.id).status).toBe("active");
  });

  test("an action other than cancel on a record that is not active is a conflict, and the adapter is not asked", async () => {
    const t = setup();
    for (const status of ["queued", "manual_pending", "failed", "cancelled"] as const) {
      const record = t.fulfillments.add({ status });
      await expect(t.manage.act(record.id, "suspend", "lapsed")).rejects.toThrow(
        `Only an active fulfillment can be suspended; this one is ${status}.`,
      );
    }
    expect(t.saas.calls).toEqual([]);
  });

  test("resume and renew use the adapter's own methods when it has them", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "active", external_status: "suspended" });

    await t.manage.act(record.id, "resume", "paid");
    await t.manage.act(record.id, "renew", "paid");

    expect(t.saas.calls.map((call) => call.method)).toEqual(["resume", "renew"]);
  });

  test("without renew, a renewal resumes a lapsed delivery and only refreshes an active one", async () => {
    const t = setup({ resume: true });
    const lapsed = t.fulfillments.add({ status: "active", external_status: "suspended" });
    const current = t.fulfillments.add({ status: "active", external_status: "active" });

    await t.manage.act(lapsed.id, "renew", "paid");
    await t.manage.act(current.id, "renew", "paid");

    expect(t.saas.calls.map((call) => [call.method, call.recordId])).toEqual([
      ["resume", lapsed.id],
      ["syncStatus", current.id],
    ]);
  });

  test("without resume, resuming refreshes the status from the adapter", async () => {
    const t = setup({});
    const record = t.fulfillments.add({ status: "active", external_status: "suspended" });

    expect((await t.manage.act(record.id, "resume", "paid")).external_status).toBe("active");
    expect(t.saas.calls.map((call) => call.method)).toEqual(["syncStatus"]);
  });

  test("an unknown record is not found", async () => {
    const t = setup();
    await expect(t.manage.act(crypto.randomUUID(), "suspend", "lapsed")).rejects.toBeInstanceOf(FulfillmentNotFound);
  });
});

describe("completing an operations task", () => {
  test("the adapter records the delivery, the task closes and the record becomes active with one notification", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "manual_fulfillment", status: "manual_pending" });
    const task = await t.openTask(record.id);
    const adminId = crypto.randomUUID();

    const active = await t.manage.completeTask(task.id, adminId, { url: "https://acme.example.com" });

    expect(active).toMatchObject({ status: "active", external_reference_id: "manual_fulfillment-delivered" });
    expect(t.adapters.manual_fulfillment.calls).toEqual([
      { method: "completeTask", recordId: record.id, detail: { url: "https://acme.example.com" } },
    ]);
    expect(await t.tasks.find(task.id)).toMatchObject({
      status: "completed",
      result: { url: "https://acme.example.com" },
    });
    expect(t.tasks.completedBy.get(task.id)).toBe(adminId);
    expect(t.outbox.all().map((message) => message.kind)).toEqual(["fulfillment.ready"]);
    await expect(t.manage.completeTask(task.id, adminId, {})).rejects.toBeInstanceOf(TaskNotFound);
  });

  test("without completeTask in the adapter, the task itself is the delivery's reference", async () => {
    const t = setup({});
    const record = t.fulfillments.add({ driver: "manual_fulfillment", status: "manual_pending" });
    const task = await t.openTask(record.id);

    expect((await t.manage.completeTask(task.id, "admin", {})).external_reference_id).toBe(task.id);
  });

  test("a record no longer waiting for ops is a conflict and the task stays open", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "manual_fulfillment", status: "cancelled" });
    const task = await t.openTask(record.id);

    await expect(t.manage.completeTask(task.id, "admin", {})).rejects.toBeInstanceOf(FulfillmentStateConflict);
    expect((await t.tasks.find(task.id))?.status).toBe("open");
    expect(t.adapters.manual_fulfillment.calls).toEqual([]);
  });

  test("an unknown task is not found", async () => {
    const t = setup();
    await expect(t.manage.completeTask(crypto.randomUUID(), "admin", {})).rejects.toBeInstanceOf(TaskNotFound);
  });
});

describe("the audit log", () => {
  test("an admin's retry is one fulfillment.retry entry; a customer's retry writes none", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "failed", last_error: "boom" });
    const own = t.fulfillments.add({ status: "failed" });

    await t.manage.adminRetry(record.id, ADMIN);
    await t.manage.retry(own.id, own.customer_id);

    expect(t.audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "fulfillment.retry",
        target_type: "fulfillment",
        target_id: record.id,
        summary: {
          order_id: record.order_id,
          driver: record.driver,
          status: { from: "failed", to: "queued" },
          last_error: "boom",
        },
      },
    ]);
  });

  test("an admin's sync, suspend and cancel each write one entry with what the adapter reported", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "active", external_status: "active" });

    await t.manage.act(record.id, "sync", "looked", ADMIN);
    await t.manage.act(record.id, "suspend", "abuse", ADMIN);
    await t.manage.act(record.id, "cancel", "customer asked", ADMIN);

    expect(
      t.audit.all().map(({ action, actor_id, target_id, summary }) => ({ action, actor_id, target_id, summary })),
    ).toEqual([
      {
        action: "fulfillment.sync",
        actor_id: ADMIN,
        target_id: record.id,
        summary: expect.objectContaining({ reason: "looked", external_status: { from: "active", to: "active" } }),
      },
      {
        action: "fulfillment.suspend",
        actor_id: ADMIN,
        target_id: record.id,
        summary: expect.objectContaining({ reason: "abuse", external_status: { from: "active", to: "suspended" } }),
      },
      {
        action: "fulfillment.cancel",
        actor_id: ADMIN,
        target_id: record.id,
        summary: expect.objectContaining({
          reason: "customer asked",
          status: { from: "active", to: "cancelled" },
          external_status: "cancelled",
        }),
      },
    ]);
  });

  test("the shop's own actions (jobs, without an actor) and refused ones write no entry", async () => {
    const t = setup();
    const active = t.fulfillments.add({ status: "active", external_status: "active" });
    const queued = t.fulfillments.add({ status: "queued" });

    await t.manage.act(active.id, "suspend", "lapsed");
    await expect(t.manage.act(queued.id, "suspend", "abuse", ADMIN)).rejects.toBeInstanceOf(FulfillmentStateConflict);
    await expect(t.manage.adminRetry(queued.id, ADMIN)).rejects.toBeInstanceOf(FulfillmentStateConflict);
    await expect(t.manage.adminRetry(crypto.randomUUID(), ADMIN)).rejects.toBeInstanceOf(FulfillmentNotFound);

    expect(t.audit.all()).toEqual([]);
  });

  test("a completed task is one manual_task.complete entry by the admin who completed it", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "manual_fulfillment", status: "manual_pending" });
    const task = await t.openTask(record.id);

    await t.manage.completeTask(task.id, ADMIN, { url: "https://acme.example.com", notes: "done" });

    expect(t.audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "manual_task.complete",
        target_type: "manual_task",
        target_id: task.id,
        summary: {
          fulfillment_id: record.id,
          order_id: record.order_id,
          kind: "manual_fulfillment",
          result: { url: "https://acme.example.com", notes: "done" },
        },
      },
    ]);
  });

  test("a task completion refused for a record that moved on writes no entry", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "manual_fulfillment", status: "cancelled" });
    const task = await t.openTask(record.id);

    await expect(t.manage.completeTask(task.id, ADMIN, {})).rejects.toBeInstanceOf(FulfillmentStateConflict);
    expect(t.audit.all()).toEqual([]);
  });
});
