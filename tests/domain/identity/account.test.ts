import { describe, expect, test } from "bun:test";
import { checkAccessChange, checkSession } from "../../../domain/identity/account.ts";
import { AdminSelfLockout } from "../../../domain/identity/errors.ts";

const admin = { role: "admin" as const, disabled: false, tokenVersion: 2 };

describe("checkSession", () => {
  test("a current token gets the stored role, whatever the token claimed", () => {
    expect(checkSession(admin, 2, undefined)).toEqual({ outcome: "valid", role: "admin" });
    expect(checkSession({ ...admin, role: "customer" }, 2, undefined)).toEqual({ outcome: "valid", role: "customer" });
  });

  test("a deleted account or an older token version is revoked", () => {
    expect(checkSession(undefined, 0, undefined)).toEqual({ outcome: "revoked" });
    expect(checkSession(admin, 1, undefined)).toEqual({ outcome: "revoked" });
    expect(checkSession(admin, 3, undefined)).toEqual({ outcome: "revoked" });
  });

  test("the session a password change kept stands with its older version; no other session does", () => {
    const changed = { ...admin, tokenVersion: 3, keptSession: { id: "s1", version: 2 } };
    expect(checkSession(changed, 2, "s1")).toEqual({ outcome: "valid", role: "admin" });
    expect(checkSession(changed, 2, "s2")).toEqual({ outcome: "revoked" });
    expect(checkSession(changed, 2, undefined)).toEqual({ outcome: "revoked" });
    expect(checkSession(changed, 1, "s1")).toEqual({ outcome: "revoked" });
    expect(checkSession(changed, 3, "s2")).toEqual({ outcome: "valid", role: "admin" });
    expect(checkSession({ ...changed, disabled: true }, 2, "s1")).toEqual({ outcome: "disabled" });
  });

  test("a disabled account says so even for a token that disabling made stale", () => {
    expect(checkSession({ ...admin, disabled: true }, 1, undefined)).toEqual({ outcome: "disabled" });
  });
});

describe("checkAccessChange", () => {
  test("an admin cannot demote or disable themselves", () => {
    expect(() => checkAccessChange("me", "me", { role: "customer" })).toThrow(AdminSelfLockout);
    expect(() => checkAccessChange("me", "me", { disabled: true })).toThrow(AdminSelfLockout);
  });

  test("changes that keep their own access, and any change to someone else, pass", () => {
    expect(() => checkAccessChange("me", "me", { role: "admin", disabled: false })).not.toThrow();
    expect(() => checkAccessChange("me", "other", { role: "customer", disabled: true })).not.toThrow();
  });
});
