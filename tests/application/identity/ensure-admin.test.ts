import { describe, expect, test } from "bun:test";
import { makeEnsureAdmin } from "../../../application/identity/ensure-admin.ts";
import { createInMemorySignInThrottle } from "../../support/fakes/in-memory-sign-in-throttle.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createListedCommonPasswords } from "../../support/fakes/listed-common-passwords.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";

function setup() {
  const users = createInMemoryUserRepository();
  const hasher = createPlainPasswordHasher();
  const signInThrottle = createInMemorySignInThrottle();
  const commonPasswords = createListedCommonPasswords();
  return {
    users,
    hasher,
    signInThrottle,
    ensureAdmin: makeEnsureAdmin({ users, hasher, signInThrottle, commonPasswords }),
  };
}

const boss = { email: "boss@example.com", password: "boss password" };

describe("ensureAdmin", () => {
  test("creates the configured admin, enabled, with the configured password", async () => {
    const { ensureAdmin, users } = setup();
    const admin = await ensureAdmin({ email: " Boss@Example.com ", password: "boss password" });
    expect(admin).toMatchObject({ email: "boss@example.com", name: "Administrator", role: "admin" });
    expect(users.all).toEqual([expect.objectContaining({ id: admin.id, passwordHash: "plain:boss password" })]);
    expect(users.all[0]?.disabled).toBe(false);
  });

  test("clears the admin's failed sign-ins: the configured password lets them in at once", async () => {
    const { ensureAdmin, signInThrottle } = setup();
    const locked = { failures: 12, lockedUntil: new Date(Date.now() + 600_000), lastAttemptAt: new Date() };
    // The account-wide count and every address's.
    signInThrottle.attempts.set("boss@example.com|", locked);
    signInThrottle.attempts.set("boss@example.com|203.0.113.7", locked);
    signInThrottle.attempts.set("other@example.com|", { failures: 3, lockedUntil: null, lastAttemptAt: new Date() });
    await ensureAdmin({ email: " Boss@Example.com ", password: "boss password" });
    expect([...signInThrottle.attempts.keys()]).toEqual(["other@example.com|"]);
  });

  test("run again with the same settings, it keeps the one account and its hash: nothing is re-hashed", async () => {
    const { ensureAdmin, users, hasher } = setup();
    const first = await ensureAdmin(boss);
    const second = await ensureAdmin(boss);
    expect(second.id).toBe(first.id);
    expect(users.all).toHaveLength(1);
    expect(hasher.hashed).toEqual(["boss password"]);
  });

  test("a changed password replaces the old one", async () => {
    const { ensureAdmin, users } = setup();
    await ensureAdmin(boss);
    await ensureAdmin({ ...boss, password: "new boss password" });
    expect(users.all).toHaveLength(1);
    expect(users.all[0]?.passwordHash).toBe("plain:new boss password");
  });

  test("makes an existing customer with that email the admin, keeping their name", async () => {
    const { ensureAdmin, users } = setup();
    const customer = await users.insert({
      email: "boss@example.com",
      name: "Grace",
      role: "customer",
      passwordHash: "plain:old password",
    });
    const admin = await ensureAdmin(boss);
    expect(admin).toMatchObject({ id: customer?.id, name: "Grace", role: "admin" });
    expect(users.all[0]?.passwordHash).toBe("plain:boss password");
  });

  test("brings a disabled, demoted admin back: the way in when no working admin is left", async () => {
    const { ensureAdmin, users } = setup();
    const admin = await ensureAdmin(boss);
    await users.changeAccess(admin.id, { role: "customer", disabled: true });
    expect(await ensureAdmin(boss)).toMatchObject({ id: admin.id, role: "admin", disabled: false });
    expect(await users.findById(admin.id)).toMatchObject({ role: "admin", disabled: false });
  });

  test("refuses an invalid email or a short password, storing nothing", async () => {
    const { ensureAdmin, users } = setup();
    await expect(ensureAdmin({ email: "boss", password: "short" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [
        { path: "/email", code: "INVALID_EMAIL" },
        { path: "/password", code: "PASSWORD_TOO_SHORT" },
      ],
    });
    expect(users.all).toEqual([]);
  });
});
