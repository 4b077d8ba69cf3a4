import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";

/** What every fulfillment log line carries, so one delivery's lines can be found together. */
export const logFields = (record: FulfillmentRecord) => ({
  order_id: record.order_id,
  order_item_id: record.order_item_id,
  driver: record.driver,
  external_reference: record.external_reference_id,
});
