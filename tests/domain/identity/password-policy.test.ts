import { describe, expect, test } from "bun:test";
import {
  brokenPasswordRule,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordFieldError,
} from "../../../domain/identity/password-policy.ts";

describe("the password policy (NIST SP 800-63B)", () => {
  test("takes 12 to 256 characters of any kind, with no composition rules", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MAX_LENGTH).toBe(256);
    for (const password of ["all lower case", "ALLUPPERCASE", "123456789876", "  spaces  ok  ", "x".repeat(256)]) {
      expect(brokenPasswordRule(password, false)).toBeUndefined();
    }
  });

  test("counts characters as code points: 12 emoji are long enough, 257 are too long", () => {
    expect("🔑".repeat(11).length).toBe(22);
    expect(brokenPasswordRule("🔑".repeat(11), false)).toBe("PASSWORD_TOO_SHORT");
    expect(brokenPasswordRule("🔑".repeat(12), false)).toBeUndefined();
    expect(brokenPasswordRule("🔑".repeat(256), false)).toBeUndefined();
    expect(brokenPasswordRule("🔑".repeat(257), false)).toBe("PASSWORD_TOO_LONG");
  });

  test("names the rule a password breaks, length first, then the list", () => {
    expect(brokenPasswordRule("elevenchars", false)).toBe("PASSWORD_TOO_SHORT");
    expect(brokenPasswordRule("x".repeat(257), true)).toBe("PASSWORD_TOO_LONG");
    expect(brokenPasswordRule("password1234", true)).toBe("PASSWORD_TOO_COMMON");
  });

  test("gives the field error with the rule as its code and a message a person can act on", () => {
    expect(passwordFieldError("/new_password", "password1234", true)).toEqual({
      path: "/new_password",
      code: "PASSWORD_TOO_COMMON",
      message: expect.stringContaining("common passwords"),
    });
    expect(passwordFieldError("/password", "short", false)?.message).toBe("must be at least 12 characters long");
    expect(passwordFieldError("/password", "a good long passphrase", false)).toBeUndefined();
  });
});
