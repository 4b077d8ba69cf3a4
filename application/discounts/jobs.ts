import { defineJob } from "../shared/jobs.ts";

/**
 * Retires a disabled discount code at every gateway. Handled by `makeRetireDiscount`
 * (retire-discount.ts).
 */
export const retireDiscountJob = defineJob({
  kind: "retire_discount",
  read: (fields) => ({ discount_id: fields.string("discount_id") }),
  dedupeKey: ({ discount_id }) => `retire-discount:${discount_id}`,
});
