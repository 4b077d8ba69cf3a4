import { describe, expect, test } from "bun:test";
import { isDatabaseUnavailable, reconnectDelaySeconds } from "../../../adapters/postgres/database.ts";

describe("reconnectDelaySeconds", () => {
  test("grows from tens of milliseconds and never exceeds one second, however many failures", () => {
    const samples = (failures: number) => Array.from({ length: 200 }, () => reconnectDelaySeconds(failures));
    expect(Math.max(...samples(0))).toBeLessThanOrEqual(0.05);
    expect(Math.min(...samples(0))).toBeGreaterThanOrEqual(0.025);
    for (const failures of [5, 10, 40, 1000]) {
      expect(Math.max(...samples(failures))).toBeLessThanOrEqual(1);
      expect(Math.min(...samples(failures))).toBeGreaterThanOrEqual(0.5);
    }
  });
});

describe("isDatabaseUnavailable", () => {
  test.each(["CONNECTION_CLOSED", "CONNECT_TIMEOUT", "ECONNREFUSED", "ECONNRESET", "08006", "57P01", "57P03", "53300"])(
    "%s is an outage",
    (code) => {
      expect(isDatabaseUnavailable(Object.assign(new Error("down"), { code }))).toBeTrue();
    },
  );

  test("a Unix socket that is gone (ENOENT on connect) is an outage; a missing file elsewhere is not", () => {
    const missing = (syscall: string) => Object.assign(new Error("missing"), { code: "ENOENT", syscall });
    expect(isDatabaseUnavailable(missing("connect"))).toBeTrue();
    expect(isDatabaseUnavailable(missing("open"))).toBeFalse();
  });

  test.each(["23505", "42P01", "22P02", "no code"])("%s is not", (code) => {
    const error = Object.assign(new Error("query"), code === "no code" ? {} : { code });
    expect(isDatabaseUnavailable(error)).toBeFalse();
  });

  test("neither is anything that is not an error object", () => {
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBeFalse();
    expect(isDatabaseUnavailable(null)).toBeFalse();
  });
});
