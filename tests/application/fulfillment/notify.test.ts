import { describe, expect, test } from "bun:test";
import { notify } from "../../../application/fulfillment/notify.ts";
import { notifyJob } from "../../../application/notifications/jobs.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

describe("notifying about a fulfillment", () => {
  test("writes the customer's notification, schedules its sending and tells the shop's systems", async () => {
    const uow = createInMemoryUnitOfWork();
    const record = uow.fulfillments.add({ status: "active" });

    await uow.run((scope) => notify(scope, "fulfillment.ready", record));

    expect(uow.outbox.all()).toMatchObject([
      { kind: "fulfillment.ready", payload: { fulfillment_id: record.id, status: "active" } },
    ]);
    expect(uow.jobs.ofKind(notifyJob.kind)).toHaveLength(1);
    expect(uow.events.ofType("fulfillment.ready")).toMatchObject([
      { data: { fulfillment_id: record.id, status: "active" } },
    ]);
  });

  test("a request for the customer's action is theirs alone: no event for the shop's systems", async () => {
    const uow = createInMemoryUnitOfWork();
    const record = uow.fulfillments.add({ status: "awaiting_customer" });

    await uow.run((scope) => notify(scope, "fulfillment.action_required", record));

    expect(uow.outbox.all()).toMatchObject([{ kind: "fulfillment.action_required" }]);
    expect(uow.jobs.ofKind(notifyJob.kind)).toHaveLength(1);
    expect(uow.events.all()).toEqual([]);
  });
});
