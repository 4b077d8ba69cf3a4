import { describe, expect, test } from "bun:test";
import { makeFulfillmentActionJob } from "../../../application/fulfillment/fulfillment-action-job.ts";
import { makeManageFulfillments } from "../../../application/fulfillment/manage-fulfillments.ts";
import { UpstreamServerError } from "../../../application/shared/errors.ts";
import { createInMemoryFulfillmentContextLoader } from "../../support/fakes/in-memory-fulfillment-context-loader.ts";
import { createInMemoryOpsTaskRepository } from "../../support/fakes/in-memory-ops-task-repository.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingAdapters } from "../../support/fakes/recording-fulfillment-adapter.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun } from "../../support/jobs.ts";

const JOB = firstRun({ maxAttempts: 3 });

/** The job over the real `act` of manage-fulfillments, with in-memory stores and recording adapters. */
function setup() {
  const uow = createInMemoryUnitOfWork();
  const adapters = createRecordingAdapters();
  const log = createRecordingLog();
  const { act } = makeManageFulfillments({
    adapters,
    fulfillments: uow.fulfillments,
    contexts: createInMemoryFulfillmentContextLoader(),
    tasks: createInMemoryOpsTaskRepository(),
    uow,
    log,
  });
  const job = makeFulfillmentActionJob({ act, log });
  return { fulfillments: uow.fulfillments, saas: adapters.multitenant_saas, log, job };
}

describe("the fulfillment action job", () => {
  test("performs the action its payload names, with its reason", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "active" });

    await t.job({ fulfillment_id: record.id, action: "suspend", reason: "subscription lapsed", cause: "lapsed" }, JOB);

    expect(t.saas.calls).toEqual([{ method: "suspend", recordId: record.id, detail: "subscription lapsed" }]);
    expect(t.fulfillments.get(record.id).external_status).toBe("suspended");
  });

  test("a record that moved on meanwhile is skipped without a retry", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "cancelled" });

    await t.job({ fulfillment_id: record.id, action: "suspend", reason: "subscription lapsed", cause: "lapsed" }, JOB);

    expect(t.saas.calls).toEqual([]);
    expect(t.log.lines).toEqual([
      expect.objectContaining({
        message: "action skipped",
        fields: expect.objectContaining({ fulfillment_id: record.id, action: "suspend" }),
      }),
    ]);
  });

  test("a record that no longer exists is skipped too", async () => {
    const t = setup();

    await t.job({ fulfillment_id: crypto.randomUUID(), action: "sync", reason: "tick", cause: "tick" }, JOB);

    expect(t.log.messages()).toEqual(["action skipped"]);
  });

  test("an adapter failure is thrown, so the job retries", async () => {
    const t = setup();
    const record = t.fulfillments.add({ status: "active", external_status: "active" });
    t.saas.failWith(new UpstreamServerError("provider", 502));

    await expect(
      t.job({ fulfillment_id: record.id, action: "sync", reason: "tick", cause: "tick" }, JOB),
    ).rejects.toBeInstanceOf(UpstreamServerError);
    expect(t.fulfillments.get(record.id).external_status).toBe("active");
    expect(t.log.messages()).not.toContain("action skipped");
  });
});
