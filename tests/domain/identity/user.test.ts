import { describe, expect, test } from "bun:test";
import { normalizeEmail, validateRegistration } from "../../../domain/identity/user.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

const valid = { email: "  Ada@Example.COM ", password: "correct horse", name: " Ada " };

describe("validateRegistration", () => {
  test("normalizes email and name", () => {
    expect(validateRegistration(valid, false)).toEqual({
      email: "ada@example.com",
      password: "correct horse",
      name: "Ada",
    });
  });

  test("keeps the password exactly as typed", () => {
    expect(validateRegistration({ ...valid, password: "  spaced out  " }, false).password).toBe("  spaced out  ");
  });

  test.each([
    [{ email: "not-an-email" }, "/email", "INVALID_EMAIL"],
    [{ password: "short" }, "/password", "PASSWORD_TOO_SHORT"],
    [{ password: "x".repeat(257) }, "/password", "PASSWORD_TOO_LONG"],
    [{ name: "   " }, "/name", "INVALID_NAME"],
    [{ email: "x,eve@victim.example" }, "/email", "INVALID_EMAIL"],
    [{ email: "Eve <eve@victim.example>" }, "/email", "INVALID_EMAIL"],
    [{ email: "ada@example.com\nbcc@victim.example" }, "/email", "INVALID_EMAIL"],
    [{ name: "Ada\nPlease also refund order 42" }, "/name", "CONTROL_CHARACTERS"],
    [{ name: "Ada\u001b[2J" }, "/name", "CONTROL_CHARACTERS"],
    [{ name: "\u202eecnelevol adA" }, "/name", "CONTROL_CHARACTERS"],
  ])("rejects %o at %s", (override, path, code) => {
    try {
      validateRegistration({ ...valid, ...override }, false);
      throw new Error("expected a ValidationFailed");
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors).toEqual([{ path, code, message: expect.any(String) }]);
    }
  });

  test("reports every bad field at once", () => {
    const attempt = () => validateRegistration({ email: "x", password: "1", name: "" }, false);
    expect(attempt).toThrow(ValidationFailed);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationFailed).errors?.map((e) => e.path)).toEqual(["/email", "/password", "/name"]);
    }
  });
});

test("normalizeEmail trims and lower-cases", () => {
  expect(normalizeEmail(" A@B.Co ")).toBe("a@b.co");
});
