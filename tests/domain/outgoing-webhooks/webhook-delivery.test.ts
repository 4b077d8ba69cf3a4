import { describe, expect, test } from "bun:test";
import {
  attemptsOf,
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRIES,
  parseRetrySchedule,
  retryWaitMs,
} from "../../../domain/outgoing-webhooks/webhook-delivery.ts";

describe("the retry schedule of a delivery", () => {
  test("by default Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, about a day in all", () => {
    expect(parseRetrySchedule("5s,5m,30m,2h,5h,10h,10h")).toEqual(DEFAULT_RETRY_SCHEDULE);
    expect(attemptsOf(DEFAULT_RETRY_SCHEDULE)).toBe(8);
    const total = DEFAULT_RETRY_SCHEDULE.reduce((sum, wait) => sum + wait, 0);
    expect(total).toBe(27 * 3_600_000 + 35 * 60_000 + 5_000);
  });

  test("the wait after each failed attempt, and the last one for any attempt past the schedule", () => {
    expect([1, 2, 3, 4, 9].map((attempt) => retryWaitMs([10, 20, 40], attempt))).toEqual([10, 20, 40, 40, 40]);
  });

  test("written as comma-separated whole waits in ms, s, m, h or d", () => {
    expect(parseRetrySchedule("10ms,20ms,40ms")).toEqual([10, 20, 40]);
    expect(parseRetrySchedule(" 1s , 2m,3h,1d ")).toEqual([1_000, 120_000, 10_800_000, 86_400_000]);
    expect(parseRetrySchedule("7d")).toEqual([7 * 86_400_000]);
    expect(parseRetrySchedule(Array(MAX_RETRIES).fill("1s").join(","))).toHaveLength(MAX_RETRIES);
  });

  test.each([
    "",
    " ",
    "5",
    "5x",
    "5 s",
    "0s",
    "05s",
    "-5s",
    "1.5h",
    "5S",
    "5s,",
    ",5s",
    "5s,,5m",
    "5s;5m",
    "8d",
    "169h",
    "99999999999ms",
    Array(MAX_RETRIES + 1)
      .fill("1s")
      .join(","),
  ])("%p is refused", (text) => {
    expect(parseRetrySchedule(text)).toBeUndefined();
  });
});
