import { describe, expect, test } from "bun:test";
import { createPostgresFulfillmentRepository } from "../../../adapters/postgres/fulfillment-repository.ts";
import { FULFILLMENT_GUARDS } from "../../../domain/fulfillment/status-guards.ts";
import { aFulfillmentContext, aManualProduct } from "../../support/builders/fulfillment.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const fulfillments = () => createPostgresFulfillmentRepository(db.current.sql);

/** A stored record that is `processing`, as the builder leaves it. */
async function aProcessingRecord() {
  return (await aFulfillmentContext(db.current.sql, { product: aManualProduct() })).record;
}

describe("postgres fulfillment repository", () => {
  test("a transition moves a record only from its guard's statuses", async () => {
    const record = await aProcessingRecord();
    expect(await fulfillments().transition(record.id, FULFILLMENT_GUARDS.retry, { status: "queued" })).toBeUndefined();
    expect((await fulfillments().find(record.id))?.status).toBe("processing");

    const moved = await fulfillments().transition(record.id, FULFILLMENT_GUARDS.fail, {
      status: "queued",
      last_error: "provider down",
    });
    expect(moved).toMatchObject({ id: record.id, status: "queued", last_error: "provider down" });
  });

  test("a processing record is reclaimed with one more attempt and no move; any other is left alone", async () => {
    const record = await aProcessingRecord();
    const reclaimed = await fulfillments().reclaim(record.id, record.attempts + 1);
    expect(reclaimed).toMatchObject({ id: record.id, status: "processing", attempts: record.attempts + 1 });

    await fulfillments().transition(record.id, FULFILLMENT_GUARDS.fail, { status: "failed", last_error: "gone" });
    expect(await fulfillments().reclaim(record.id, 9)).toBeUndefined();
    expect(await fulfillments().find(record.id)).toMatchObject({ status: "failed", attempts: record.attempts + 1 });
  });
});
