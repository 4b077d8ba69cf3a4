import { describe, expect, test } from "bun:test";
import { jobsOf } from "../../../adapters/wiring/feature.ts";
import { JOB_TYPES, type MarketplaceJobHandlers } from "../../../adapters/wiring/job-kinds.ts";

const done = async () => {};

/** A handler for every kind, as the features give them together. */
const every: MarketplaceJobHandlers = {
  payment_event: done,
  end_gateway_subscription: done,
  settle_refund: done,
  expire_checkout: done,
  retire_discount: done,
  fulfill: done,
  fulfillment_action: done,
  release_held_deliveries: done,
  notify: done,
  send_email: done,
  webhook_fanout: done,
  webhook_delivery: done,
  webhook_replay: done,
  password_reset: done,
  email_link: done,
  email_changed: done,
};

describe("the worker's handler table", () => {
  test("takes each feature's handlers by kind", () => {
    const { notify, ...rest } = every;
    const table = jobsOf([{ useCases: {}, jobs: rest }, { useCases: {} }, { useCases: {}, jobs: { notify } }]);
    expect(Object.keys(table).sort()).toEqual(Object.keys(JOB_TYPES).sort());
    expect(table.notify).toBe(notify);
  });

  test("a kind no feature handles does not compile", () => {
    const { notify: _, ...withoutNotify } = every;
    // @ts-expect-error `notify` has no handler
    const table = jobsOf([{ useCases: {}, jobs: withoutNotify }]);
    expect(Object.keys(table)).not.toContain("notify");
  });

  test("two features handling one kind is a wiring mistake", () => {
    expect(() =>
      jobsOf([
        { useCases: {}, jobs: every },
        { useCases: {}, jobs: { fulfill: done } },
      ]),
    ).toThrow("two features handle the job kind fulfill");
  });
});
