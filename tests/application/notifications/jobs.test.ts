import { describe, expect, test } from "bun:test";
import { notifyJob } from "../../../application/notifications/jobs.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { enqueued } from "../../support/jobs.ts";

describe("the notify job", () => {
  test("one per outbox message", () => {
    expect(enqueued(notifyJob({ outbox_id: "n-1" }))).toEqual({
      kind: "notify",
      payload: { outbox_id: "n-1" },
      dedupeKey: "notify:n-1",
    });
    expect(notifyJob.read({ outbox_id: "n-1" })).toEqual({ outbox_id: "n-1" });
    expect(() => notifyJob.read({ outbox_id: null })).toThrow(PermanentJobFailure);
  });
});
