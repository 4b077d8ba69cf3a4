import { describe, expect, test } from "bun:test";
import { expireCheckoutJob } from "../../../application/checkout/jobs.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { enqueued } from "../../support/jobs.ts";

describe("the expire-checkout job", () => {
  test("one per order", () => {
    expect(enqueued(expireCheckoutJob({ order_id: "o-1" }))).toEqual({
      kind: "expire_checkout",
      payload: { order_id: "o-1" },
      dedupeKey: "expire-checkout:o-1",
    });
    expect(expireCheckoutJob.read({ order_id: "o-1" })).toEqual({ order_id: "o-1" });
    expect(() => expireCheckoutJob.read({})).toThrow(PermanentJobFailure);
  });
});
