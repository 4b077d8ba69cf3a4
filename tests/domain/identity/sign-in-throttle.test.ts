import { describe, expect, test } from "bun:test";
import {
  decideSignInAttempt,
  decideSignInAttempts,
  SIGN_IN_PER_ACCOUNT,
  SIGN_IN_PER_ADDRESS,
  signInBackoffSeconds,
} from "../../../domain/identity/sign-in-throttle.ts";

const now = new Date("2026-01-15T09:30:00.000Z");
const lockedFor = (seconds: number, failures = 30) => ({
  failures,
  lockedUntil: new Date(now.getTime() + seconds * 1000),
  lastAttemptAt: now,
});

describe("sign-in back-off", () => {
  test("per address: 5 free, then 1 s, 2 s ... at most 15 min", () => {
    const waits = [4, 5, 6, 7, 14, 15, 40].map((attempts) => signInBackoffSeconds(attempts, SIGN_IN_PER_ADDRESS));
    expect(waits).toEqual([0, 1, 2, 4, 512, 900, 900]);
  });

  test("per account from every address: 20 free, then 1 s, 2 s ... at most 60 s", () => {
    const waits = [19, 20, 21, 25, 26, 200].map((attempts) => signInBackoffSeconds(attempts, SIGN_IN_PER_ACCOUNT));
    expect(waits).toEqual([0, 1, 2, 32, 60, 60]);
  });

  test("an attempt is taken only when both counts allow it, and then counts in both", () => {
    const taken = decideSignInAttempts(
      { address: undefined, account: { failures: 19, lockedUntil: null, lastAttemptAt: now } },
      now,
    );
    expect(taken).toEqual({
      allowed: true,
      next: {
        address: { failures: 1, lockedUntil: null, lastAttemptAt: now },
        account: { failures: 20, lockedUntil: new Date(now.getTime() + 1000), lastAttemptAt: now },
      },
    });
  });

  test("a refused attempt waits until both counts allow one", () => {
    expect(decideSignInAttempts({ address: undefined, account: lockedFor(42) }, now)).toEqual({
      allowed: false,
      retryAfterSeconds: 42,
    });
    expect(decideSignInAttempts({ address: lockedFor(900), account: lockedFor(60) }, now)).toEqual({
      allowed: false,
      retryAfterSeconds: 900,
    });
  });

  test("a wait still running is told in whole seconds, at least one", () => {
    const almost = { failures: 9, lockedUntil: new Date(now.getTime() + 1), lastAttemptAt: now };
    expect(decideSignInAttempt(almost, now, SIGN_IN_PER_ADDRESS)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
