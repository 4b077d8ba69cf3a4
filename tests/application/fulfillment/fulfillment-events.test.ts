import { describe, expect, test } from "bun:test";
import { makeFulfillItem } from "../../../application/fulfillment/fulfill-item.ts";
import { UpstreamRejected, UpstreamServerError } from "../../../application/shared/errors.ts";
import type { FulfillmentRecord } from "../../../domain/fulfillment/fulfillment.ts";
import { createInMemoryFulfillmentContextLoader } from "../../support/fakes/in-memory-fulfillment-context-loader.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingAdapters } from "../../support/fakes/recording-fulfillment-adapter.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { nthRun } from "../../support/jobs.ts";

function setUp() {
  const uow = createInMemoryUnitOfWork();
  const adapters = createRecordingAdapters();
  const fulfillItem = makeFulfillItem({
    adapters,
    fulfillments: uow.fulfillments,
    contexts: createInMemoryFulfillmentContextLoader(),
    uow,
    log: createRecordingLog(),
    requireVerifiedEmail: false,
  });
  const job = (attempt: number) => nthRun(attempt, 3);
  const run = (record: FulfillmentRecord, attempt = 1) => fulfillItem({ fulfillment_id: record.id }, job(attempt));
  return { uow, adapters, run, events: uow.events };
}

describe("fulfillment events for the shop's systems", () => {
  test("fulfillment.ready once, with the delivery's ids and public fields but nothing of its snapshot", async () => {
    const { uow, adapters, run, events } = setUp();
    const record = uow.fulfillments.add({ driver: "license_download" });
    adapters.license_download.fulfillWith({
      status: "active",
      external_reference_id: "lic_1",
      snapshot: { license_key: "LICENSE-KEY-VALUE", download_token: "DOWNLOAD-TOKEN-VALUE" },
    });
    await run(record);
    await run(record);
    const ready = events.ofType("fulfillment.ready");
    expect(ready).toHaveLength(1);
    expect(ready[0]?.data).toMatchObject({
      fulfillment_id: record.id,
      order_id: record.order_id,
      order_item_id: record.order_item_id,
      customer_id: record.customer_id,
      driver: "license_download",
      status: "active",
      external_reference_id: "lic_1",
      attempts: 1,
    });
    const text = JSON.stringify(ready[0]?.data);
    expect(text).not.toContain("LICENSE-KEY-VALUE");
    expect(text).not.toContain("DOWNLOAD-TOKEN-VALUE");
    expect(text).not.toContain("snapshot");
  });

  test("fulfillment.failed once when the delivery fails for good; a retried failure publishes nothing", async () => {
    const { uow, adapters, run, events } = setUp();
    const record = uow.fulfillments.add();
    adapters.multitenant_saas.fulfillWith(new UpstreamServerError("provider", 503));
    await expect(run(record, 1)).rejects.toThrow();
    expect(events.all()).toEqual([]);
    adapters.multitenant_saas.fulfillWith(new UpstreamRejected("provider", 422, "PLAN_UNKNOWN", "no such plan"));
    await expect(run(record, 2)).rejects.toThrow();
    expect(events.ofType("fulfillment.failed")).toMatchObject([
      { data: { fulfillment_id: record.id, status: "failed", attempts: 2 } },
    ]);
    expect(events.ofType("fulfillment.failed")[0]?.data.last_error).toContain("PLAN_UNKNOWN");
  });

  test("waiting for the customer publishes nothing yet (the customer alone is told)", async () => {
    const { uow, adapters, run, events } = setUp();
    const waiting = uow.fulfillments.add({ driver: "singletenant_provisioning" });
    adapters.singletenant_provisioning.fulfillWith({ status: "awaiting_customer", reason: "a domain is needed" });
    await run(waiting);
    expect(events.all()).toEqual([]);
  });
});
