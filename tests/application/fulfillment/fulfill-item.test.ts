import { describe, expect, test } from "bun:test";
import { makeFulfillItem } from "../../../application/fulfillment/fulfill-item.ts";
import { notifyJob } from "../../../application/notifications/jobs.ts";
import { PermanentJobFailure, UpstreamRejected, UpstreamServerError } from "../../../application/shared/errors.ts";
import type { FulfillmentRecord } from "../../../domain/fulfillment/fulfillment.ts";
import { createInMemoryFulfillmentContextLoader } from "../../support/fakes/in-memory-fulfillment-context-loader.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingAdapters } from "../../support/fakes/recording-fulfillment-adapter.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { nthRun } from "../../support/jobs.ts";

function setup(options: { requireVerifiedEmail?: boolean } = {}) {
  const uow = createInMemoryUnitOfWork();
  const adapters = createRecordingAdapters();
  const contexts = createInMemoryFulfillmentContextLoader();
  const log = createRecordingLog();
  const fulfillItem = makeFulfillItem({
    adapters,
    fulfillments: uow.fulfillments,
    contexts,
    uow,
    log,
    requireVerifiedEmail: options.requireVerifiedEmail ?? false,
  });
  const saas = adapters.multitenant_saas;
  /** Runs the fulfill job for `record` as attempt `attempt` of 3. */
  const run = (record: FulfillmentRecord, attempt = 1) => fulfillItem({ fulfillment_id: record.id }, aJob(attempt, 3));
  const notifications = () => uow.outbox.all().map((message) => [message.kind, message.payload.fulfillment_id]);
  const { fulfillments, jobs } = uow;
  return { fulfillments, jobs, adapters, saas, contexts, log, fulfillItem, run, notifications };
}

const aJob = nthRun;

const outage = () => new UpstreamServerError("provider", 503);
const refusal = () => new UpstreamRejected("provider", 422, "PLAN_UNKNOWN", "no such plan");

describe("fulfilling one order item", () => {
  test("with verified addresses required, an unverified customer's delivery waits and the adapter is not called", async () => {
    const t = setup({ requireVerifiedEmail: true });
    const held = t.fulfillments.add({ driver: "multitenant_saas", payload_snapshot: { variant: "monthly" } });
    const verified = t.fulfillments.add({ driver: "multitenant_saas" });
    t.contexts.unverified.add(held.customer_id);
    t.saas.fulfillWith({ status: "active", external_reference_id: "ref-1" });

    await t.run(held);
    await t.run(verified);

    expect(t.fulfillments.get(held.id)).toMatchObject({
      status: "awaiting_customer",
      payload_snapshot: { variant: "monthly", awaiting: "verify_email" },
    });
    expect(t.fulfillments.get(verified.id)?.status).toBe("active");
    expect(t.saas.calls).toEqual([{ method: "fulfill", recordId: verified.id }]);
    expect(t.notifications()).toEqual([
      ["fulfillment.action_required", held.id],
      ["fulfillment.ready", verified.id],
    ]);
  });

  test("without the setting, an unverified customer is delivered as anyone", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "multitenant_saas" });
    t.contexts.unverified.add(record.customer_id);
    t.saas.fulfillWith({ status: "active", external_reference_id: "ref-1" });
    await t.run(record);
    expect(t.fulfillments.get(record.id)?.status).toBe("active");
  });

  test("a queued record is delivered by its driver's adapter and becomes active with its references", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "multitenant_saas", payload_snapshot: { variant: "monthly" } });
    t.saas.fulfillWith({
      status: "active",
      external_reference_id: "ref-42",
      external_workspace_url: "https://acme.example.com",
      external_status: "trialing",
      snapshot: { tenant: "t-1" },
    });

    await t.run(record);

    expect(t.fulfillments.get(record.id)).toMatchObject({
      status: "active",
      attempts: 1,
      external_reference_id: "ref-42",
      external_workspace_url: "https://acme.example.com",
      external_status: "trialing",
      payload_snapshot: { variant: "monthly", tenant: "t-1" },
    });
    expect(t.saas.calls).toEqual([{ method: "fulfill", recordId: record.id }]);
    expect(t.adapters.license_download.calls).toEqual([]);
    expect(t.notifications()).toEqual([["fulfillment.ready", record.id]]);
    // The ready notification is the fulfill job's follow-up: its worker sends it next.
    expect(t.jobs.followUps()).toEqual(t.jobs.ofKind(notifyJob.kind).map((job) => job.dedupeKey));
    expect(t.jobs.ofKind(notifyJob.kind)).toHaveLength(1);
  });

  test("waiting for the customer or for ops is settled without a ready notification", async () => {
    const t = setup();
    const waiting = t.fulfillments.add({ driver: "singletenant_provisioning" });
    const pending = t.fulfillments.add({ driver: "manual_fulfillment" });
    t.adapters.singletenant_provisioning.fulfillWith({ status: "awaiting_customer", reason: "a domain is needed" });
    t.adapters.manual_fulfillment.fulfillWith({ status: "manual_pending", external_reference_id: "task-1" });

    await t.run(waiting);
    await t.run(pending);

    expect(t.fulfillments.get(waiting.id).status).toBe("awaiting_customer");
    expect(t.fulfillments.get(pending.id)).toMatchObject({ status: "manual_pending", external_reference_id: "task-1" });
    expect(t.notifications()).toEqual([["fulfillment.action_required", waiting.id]]);
  });

  test("a transient failure puts the record back in the queue, keeps the error and lets the job retry", async () => {
    const t = setup();
    const record = t.fulfillments.add();
    t.saas.fulfillWith(outage());

    await expect(t.run(record, 1)).rejects.toBeInstanceOf(UpstreamServerError);

    expect(t.fulfillments.get(record.id)).toMatchObject({
      status: "queued",
      attempts: 1,
      last_error: "The provider failed with HTTP 503.",
    });
    expect(t.notifications()).toEqual([]);
  });

  test("the adapter is handed the record as it is processing, with the context read for it", async () => {
    const t = setup();
    const record = t.fulfillments.add({ driver: "multitenant_saas", attempts: 2 });
    const seen: FulfillmentRecord[] = [];
    const fulfill = t.saas.fulfill;
    t.saas.fulfill = (context) => {
      seen.push(context.record);
      return fulfill(context);
    };

    await t.run(record, 3);

    expect(t.contexts.loaded).toEqual([record.id]);
    expect(seen).toMatchObject([{ id: record.id, status: "processing", attempts: 3 }]);
  });

  test("a context that cannot be read fails the attempt like an outage: queued again, nothing provisioned", async () => {
    const t = setup();
    const record = t.fulfillments.add();
    t.contexts.load = async () => {
      throw new Error("fulfillment refers to missing rows");
    };

    await expect(t.run(record, 1)).rejects.toThrow("missing rows");

    expect(t.fulfillments.get(record.id)).toMatchObject({ status: "queued", attempts: 1 });
    expect(t.saas.calls).toEqual([]);
  });

  test("attempts are counted across retries until one delivers", async () => {
    const t = setup();
    const record = t.fulfillments.add();
    t.saas.fulfillWith(outage());
    await expect(t.run(record, 1)).rejects.toThrow();
    await expect(t.run(record, 2)).rejects.toThrow();
    t.saas.fulfillWith({ status: "active", external_reference_id: "ref-1" });

    await t.run(record, 3);

    expect(t.fulfillments.get(record.id)).toMatchObject({ status: "active", attempts: 3 });
    expect(t.saas.count("fulfill")).toBe(3);
    expect(t.notifications()).toEqual([["fulfillment.ready", record.id]]);
  });

  test("a transient failure on the last attempt fails the record and notifies once", async () => {
    const t = setup();
    const record = t.fulfillments.add({ attempts: 2 });
    t.saas.fulfillWith(outage());

    await expect(t.run(record, 3)).rejects.toBeInstanceOf(UpstreamServerError);

    expect(t.fulfillments.get(record.id)).toMatchObject({
      status: "failed",
      attempts: 3,
      last_error: "The provider failed with HTTP 503.",
    });
    expect(t.notifications()).toEqual([["fulfillment.failed", record.id]]);
    expect(t.jobs.followUps()).toEqual(t.jobs.ofKind(notifyJob.kind).map((job) => job.dedupeKey));
    expect(t.log.lines.at(-1)).toMatchObject({ level: "error", fields: { final: true } });
  });

  test("a permanent failure fails the record on the first attempt", async () => {
    const t = setup();
    const record = t.fulfillments.add();
    t.saas.fulfillWith(refusal());

    await expect(t.run(record, 1)).rejects.toMatchObject({ transient: false });

    const failed = t.fulfillments.get(record.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.last_error).toContain("HTTP 422 PLAN_UNKNOWN");
    expect(t.notifications()).toEqual([["fulfillment.failed", record.id]]);
  });

  test("a record already delivered, waiting or cancelled is left alone: nothing is provisioned twice", async () => {
    const t = setup();
    for (const status of ["active", "awaiting_customer", "manual_pending", "cancelled"] as const) {
      const record = t.fulfillments.add({ status, attempts: 1 });
      await t.run(record);
      expect(t.fulfillments.get(record.id)).toEqual(record);
    }
    expect(t.saas.calls).toEqual([]);
    expect(t.notifications()).toEqual([]);
  });

  test("the same job run twice delivers and notifies once", async () => {
    const t = setup();
    const record = t.fulfillments.add();

    await t.run(record);
    await t.run(record);

    expect(t.saas.count("fulfill")).toBe(1);
    expect(t.fulfillments.get(record.id).attempts).toBe(1);
    expect(t.notifications()).toHaveLength(1);
  });

  test("a run that died while processing is picked up again", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "processing", attempts: 1 });

    await t.run(record, 2);

    expect(t.fulfillments.get(record.id)).toMatchObject({ status: "active", attempts: 2 });
  });

  test("a redriven job finds its record failed and retries it", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "failed", attempts: 3, last_error: "boom" });

    await t.run(record, 1);

    expect(t.fulfillments.get(record.id)).toMatchObject({ status: "active", attempts: 4 });
    expect(t.log.messages()).toContain("fulfillment redriven");
  });

  test("a job for a record that does not exist dead-letters at once", async () => {
    const t = setup();

    await expect(t.fulfillItem({ fulfillment_id: crypto.randomUUID() }, aJob(1, 3))).rejects.toBeInstanceOf(
      PermanentJobFailure,
    );
    expect(t.saas.calls).toEqual([]);
  });
});
