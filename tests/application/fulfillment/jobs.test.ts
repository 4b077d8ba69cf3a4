import { describe, expect, test } from "bun:test";
import { fulfillJob, fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { enqueued } from "../../support/jobs.ts";

describe("the fulfillment jobs", () => {
  test("fulfill: one per record, stored as `fulfill`", () => {
    expect(enqueued(fulfillJob({ fulfillment_id: "f-1" }))).toEqual({
      kind: "fulfill",
      payload: { fulfillment_id: "f-1" },
      dedupeKey: "fulfill:f-1",
    });
    expect(fulfillJob.read({ fulfillment_id: "f-1" })).toEqual({ fulfillment_id: "f-1" });
    expect(() => fulfillJob.read({})).toThrow(PermanentJobFailure);
  });

  test("fulfillment_action: one per action, record and cause", () => {
    const payload = { fulfillment_id: "f-1", action: "suspend" as const, reason: "payment disputed", cause: "dp_1" };
    expect(enqueued(fulfillmentActionJob(payload))).toEqual({
      kind: "fulfillment_action",
      payload,
      dedupeKey: "suspend:f-1:dp_1",
    });
    expect(fulfillmentActionJob({ ...payload, cause: "dp_2" }).dedupeKey).toBe("suspend:f-1:dp_2");
    expect(fulfillmentActionJob({ ...payload, action: "sync", cause: "tick" }).dedupeKey).toBe("sync:f-1:tick");
    expect(fulfillmentActionJob.read(payload)).toEqual(payload);
  });

  test("fulfillment_action: a job stored before its cause was kept still runs; an unknown action does not", () => {
    expect(fulfillmentActionJob.read({ fulfillment_id: "f-1", action: "sync", reason: "minute tick" })).toEqual({
      fulfillment_id: "f-1",
      action: "sync",
      reason: "minute tick",
      cause: "",
    });
    expect(() => fulfillmentActionJob.read({ fulfillment_id: "f-1", action: "explode" })).toThrow(PermanentJobFailure);
  });
});
