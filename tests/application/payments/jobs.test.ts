import { describe, expect, test } from "bun:test";
import { endGatewaySubscriptionJob, paymentEventJob, settleRefundJob } from "../../../application/payments/jobs.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { enqueued } from "../../support/jobs.ts";

describe("the payment jobs", () => {
  test("payment_event: one per inbox entry", () => {
    expect(enqueued(paymentEventJob({ inbox_id: "i-1" }))).toEqual({
      kind: "payment_event",
      payload: { inbox_id: "i-1" },
      dedupeKey: "inbox:i-1",
    });
    expect(() => paymentEventJob.read({ inbox_id: 1 })).toThrow(PermanentJobFailure);
  });

  test("end_gateway_subscription: one per subscription, whatever the reason", () => {
    const job = endGatewaySubscriptionJob({ subscription_id: "s-1", reason: "dispute lost" });
    expect(enqueued(job)).toEqual({
      kind: "end_gateway_subscription",
      payload: { subscription_id: "s-1", reason: "dispute lost" },
      dedupeKey: "end-subscription:s-1",
    });
    expect(endGatewaySubscriptionJob({ subscription_id: "s-1", reason: "payment refunded" }).dedupeKey).toBe(
      job.dedupeKey,
    );
  });

  test("settle_refund: one per reservation, at the time it is given", () => {
    const runAt = new Date("2026-01-01T00:10:00.000Z");
    const payload = { reservation_id: "r-1", order_id: "o-1", actor_id: "u-1" };
    expect(enqueued(settleRefundJob(payload, { runAt }))).toEqual({
      kind: "settle_refund",
      payload,
      dedupeKey: "settle_refund:r-1",
      runAt,
    });
    expect(settleRefundJob.read(payload)).toEqual(payload);
    expect(() => settleRefundJob.read({ reservation_id: "r-1", order_id: "o-1" })).toThrow(PermanentJobFailure);
  });
});
