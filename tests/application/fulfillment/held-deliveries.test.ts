import { describe, expect, test } from "bun:test";
import { makeReleaseHeldDeliveries } from "../../../application/fulfillment/held-deliveries.ts";
import { fulfillJob } from "../../../application/fulfillment/jobs.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { nthRun } from "../../support/jobs.ts";

function setup() {
  const uow = createInMemoryUnitOfWork();
  const release = makeReleaseHeldDeliveries({ fulfillments: uow.fulfillments, uow, log: createRecordingLog() });
  return {
    uow,
    fulfillments: uow.fulfillments,
    release: (customer_id: string) => release({ customer_id }, nthRun(1, 3)),
  };
}

const HELD = {
  status: "awaiting_customer",
  payload_snapshot: { variant: "monthly", awaiting: "verify_email" },
} as const;

describe("releasing the deliveries that waited for a verified address", () => {
  test("every held delivery of the customer goes back to processing with its fulfill job; nothing else moves", async () => {
    const t = setup();
    const customer = crypto.randomUUID();
    const held = [
      t.fulfillments.add({ ...HELD, customer_id: customer }),
      t.fulfillments.add({ ...HELD, customer_id: customer }),
    ];
    const domain = t.fulfillments.add({ customer_id: customer, status: "awaiting_customer", payload_snapshot: {} });
    const someoneElse = t.fulfillments.add({ ...HELD });
    const active = t.fulfillments.add({ customer_id: customer, status: "active" });

    await t.release(customer);

    for (const record of held) {
      expect(t.fulfillments.get(record.id)).toMatchObject({
        status: "processing",
        payload_snapshot: { variant: "monthly" },
      });
      expect(t.fulfillments.get(record.id)?.payload_snapshot).not.toHaveProperty("awaiting");
    }
    expect(t.fulfillments.get(domain.id)?.status).toBe("awaiting_customer");
    expect(t.fulfillments.get(someoneElse.id)?.status).toBe("awaiting_customer");
    expect(t.fulfillments.get(active.id)?.status).toBe("active");
    expect(
      t.uow.jobs
        .ofKind(fulfillJob.kind)
        .map((job) => job.payload.fulfillment_id)
        .sort(),
    ).toEqual(held.map((record) => record.id).sort());
  });

  test("run again, it finds nothing more to release", async () => {
    const t = setup();
    const customer = crypto.randomUUID();
    t.fulfillments.add({ ...HELD, customer_id: customer });
    await t.release(customer);
    await t.release(customer);
    expect(t.uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
  });
});
