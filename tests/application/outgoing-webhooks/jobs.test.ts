import { describe, expect, test } from "bun:test";
import { webhookDeliveryJob, webhookFanoutJob, webhookReplayJob } from "../../../application/outgoing-webhooks/jobs.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { enqueued } from "../../support/jobs.ts";

describe("the outgoing webhook jobs", () => {
  test("webhook_fanout: one per event", () => {
    expect(enqueued(webhookFanoutJob({ event_id: "e-1" }))).toEqual({
      kind: "webhook_fanout",
      payload: { event_id: "e-1" },
      dedupeKey: "fanout:e-1",
    });
    expect(() => webhookFanoutJob.read({})).toThrow(PermanentJobFailure);
  });

  test("webhook_delivery: one per run of a delivery, so a redelivery has a key of its own", () => {
    expect(enqueued(webhookDeliveryJob({ delivery_id: "d-1", redelivery: 0 }, { maxAttempts: 8 }))).toEqual({
      kind: "webhook_delivery",
      payload: { delivery_id: "d-1", redelivery: 0 },
      dedupeKey: "webhook:d-1:0",
      maxAttempts: 8,
    });
    expect(webhookDeliveryJob.dedupeKey({ delivery_id: "d-1", redelivery: 1 })).toBe("webhook:d-1:1");
  });

  test("webhook_delivery: a run whose first attempt a replay made names the attempt it goes on with", () => {
    const run = { delivery_id: "d-1", redelivery: 2, first_attempt: 2 };
    expect(webhookDeliveryJob.read(run)).toEqual(run);
    expect(webhookDeliveryJob.dedupeKey(run)).toBe("webhook:d-1:2");
  });

  test("webhook_replay: one per step of a replay", () => {
    expect(enqueued(webhookReplayJob({ replay_id: "r-1", step: 3 }))).toEqual({
      kind: "webhook_replay",
      payload: { replay_id: "r-1", step: 3 },
      dedupeKey: "replay:r-1:3",
    });
    expect(() => webhookReplayJob.read({})).toThrow(PermanentJobFailure);
  });

  test("webhook_delivery: a job stored before redeliveries were counted sends the first run", () => {
    expect(webhookDeliveryJob.read({ delivery_id: "d-1" })).toEqual({ delivery_id: "d-1", redelivery: 0 });
  });
});
