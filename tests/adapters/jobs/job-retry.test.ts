import { describe, expect, test } from "bun:test";
import { errorMessage, failureOutcome, retryDelayMs } from "../../../adapters/jobs/job-retry.ts";
import {
  PermanentJobFailure,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamTimeout,
} from "../../../application/shared/errors.ts";

const backoff = { baseMs: 1_000, maxMs: 60_000 };

describe("retry delay (full jitter)", () => {
  test("is uniform below min(maxMs, baseMs * 2^(attempt - 1))", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, backoff, () => 0.999_999))).toEqual([
      999, 1_999, 3_999, 7_999,
    ]);
    expect(retryDelayMs(8, backoff, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(8, backoff, () => 0)).toBe(0);
  });

  test("Retry-After is a floor, even above the cap", () => {
    expect(retryDelayMs(1, backoff, () => 0.1, 5_000)).toBe(5_000);
    expect(retryDelayMs(3, backoff, () => 0.9, 1_000)).toBe(3_600);
    expect(retryDelayMs(1, backoff, () => 0.5, 120_000)).toBe(120_000);
  });
});

describe("failure outcome", () => {
  const random = () => 0.5;
  test("retries transient and unknown errors until the last attempt", () => {
    expect(
      failureOutcome(new UpstreamTimeout("provider", 45), { attempt: 1, maxAttempts: 8 }, backoff, random),
    ).toEqual({
      state: "pending",
      delayMs: 500,
      error: "The provider did not answer within 45 s.",
    });
    expect(failureOutcome(new TypeError("boom"), { attempt: 2, maxAttempts: 8 }, backoff, random)).toMatchObject({
      state: "pending",
      delayMs: 1_000,
    });
    expect(failureOutcome(new TypeError("boom"), { attempt: 8, maxAttempts: 8 }, backoff, random)).toEqual({
      state: "dead",
      error: "boom",
    });
  });

  test("dead-letters at once what no retry can fix", () => {
    const run = { attempt: 1, maxAttempts: 8 };
    const rejected = new UpstreamRejected("provider", 422, "BAD_SKU", "unknown product");
    expect(failureOutcome(rejected, run, backoff, random).state).toBe("dead");
    expect(failureOutcome(new PermanentJobFailure("gone"), run, backoff, random).state).toBe("dead");
    expect(failureOutcome(new UpstreamRateLimited("gateway", 2_000), run, backoff, random)).toMatchObject({
      delayMs: 2_000,
    });
  });

  test("an error's message is kept short and without a stack", () => {
    expect(errorMessage("plain string")).toBe("plain string");
    expect(errorMessage(new Error("y".repeat(2_000)))).toHaveLength(1_000);
  });
});
