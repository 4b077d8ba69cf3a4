import { describe, expect, test } from "bun:test";
import {
  admit,
  type BreakerRecord,
  breakerState,
  CLOSED_BREAKER,
  recordFailure,
  recordSuccess,
  releaseTrial,
} from "../../../domain/payments/gateway-breaker.ts";

const policy = { failures: 3, cooldownMs: 30_000, trialLeaseMs: 60_000 };
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, seconds));

const failTimes = (record: BreakerRecord, times: number, now = at(0)) => {
  let current = record;
  for (let i = 0; i < times; i++) current = recordFailure(current, policy, now);
  return current;
};

describe("gateway breaker", () => {
  test("stays closed below the threshold and lets every call through", () => {
    const record = failTimes(CLOSED_BREAKER, 2);
    expect(record).toEqual({ consecutive_failures: 2, opened_at: null, trial_started_at: null });
    expect(breakerState(record, policy, at(1))).toBe("closed");
    expect(admit(record, policy, at(1))).toEqual({ admitted: true, record });
  });

  test("a success in between starts the count again: only failures in a row open it", () => {
    const record = failTimes(recordSuccess(failTimes(CLOSED_BREAKER, 2)), 2);
    expect(breakerState(record, policy, at(1))).toBe("closed");
  });

  test("opens at the threshold and refuses calls until the cool-down ends, saying how long", () => {
    const open = failTimes(CLOSED_BREAKER, 3, at(0));
    expect(open.opened_at).toEqual(at(0));
    expect(breakerState(open, policy, at(10))).toBe("open");
    expect(admit(open, policy, at(10))).toEqual({ admitted: false, retryAfterSeconds: 20 });
    expect(admit(open, policy, at(29))).toEqual({ admitted: false, retryAfterSeconds: 1 });
  });

  test("half-opens after the cool-down and lets one trial through, not a second", () => {
    const open = failTimes(CLOSED_BREAKER, 3, at(0));
    expect(breakerState(open, policy, at(30))).toBe("half_open");
    const trial = admit(open, policy, at(30));
    expect(trial).toEqual({ admitted: true, record: { ...open, trial_started_at: at(30) } });
    if (!trial.admitted) throw new Error("the trial was refused");
    expect(admit(trial.record, policy, at(31))).toEqual({ admitted: false, retryAfterSeconds: 59 });
  });

  test("the trial's success closes it", () => {
    const open = failTimes(CLOSED_BREAKER, 3, at(0));
    const trial = admit(open, policy, at(30));
    if (!trial.admitted) throw new Error("the trial was refused");
    const closed = recordSuccess(trial.record);
    expect(closed).toEqual(CLOSED_BREAKER);
    expect(breakerState(closed, policy, at(31))).toBe("closed");
  });

  test("the trial's failure opens it for a fresh cool-down", () => {
    const open = failTimes(CLOSED_BREAKER, 3, at(0));
    const trial = admit(open, policy, at(30));
    if (!trial.admitted) throw new Error("the trial was refused");
    const reopened = recordFailure(trial.record, policy, at(32));
    expect(reopened).toEqual({ consecutive_failures: 4, opened_at: at(32), trial_started_at: null });
    expect(breakerState(reopened, policy, at(61))).toBe("open");
    expect(breakerState(reopened, policy, at(62))).toBe("half_open");
  });

  test("a trial whose caller vanished gives way to another once its lease ends", () => {
    const open = failTimes(CLOSED_BREAKER, 3, at(0));
    const trial = admit(open, policy, at(30));
    if (!trial.admitted) throw new Error("the trial was refused");
    expect(admit(trial.record, policy, at(90)).admitted).toBe(true);
  });

  test("a trial that ended in a refusal (not an outage) frees the way for the next call", () => {
    const open = failTimes(CLOSED_BREAKER, 3, at(0));
    const trial = admit(open, policy, at(30));
    if (!trial.admitted) throw new Error("the trial was refused");
    const released = releaseTrial(trial.record);
    expect(released.consecutive_failures).toBe(3);
    expect(admit(released, policy, at(31)).admitted).toBe(true);
  });
});
