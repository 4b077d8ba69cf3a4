import { describe, expect, test } from "bun:test";
import { ACCOUNTS_TOPIC } from "../../../application/identity/account-states.ts";
import { makeChangePassword } from "../../../application/identity/change-password.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemorySignInThrottle } from "../../support/fakes/in-memory-sign-in-throttle.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createListedCommonPasswords } from "../../support/fakes/listed-common-passwords.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";

async function setUp() {
  const users = createInMemoryUserRepository();
  const changes = createInMemoryChangeSignal();
  const published: string[] = [];
  changes.subscribe(ACCOUNTS_TOPIC, () => published.push(ACCOUNTS_TOPIC));
  const ada = await users.insert({
    email: "ada@example.com",
    name: "Ada",
    role: "customer",
    passwordHash: "plain:old pass phrase",
  });
  if (!ada) throw new Error("seed failed");
  const change = makeChangePassword({
    users,
    hasher: createPlainPasswordHasher(),
    signInThrottle: createInMemorySignInThrottle(),
    clock: createMovableClock().clock,
    commonPasswords: createListedCommonPasswords(["password1234"]),
    changes,
  });
  const session = { id: "session-1", version: 0 };
  const input = (currentPassword: string, newPassword: string) => ({
    userId: ada.id,
    session,
    currentPassword,
    newPassword,
    client: "10.0.0.1",
  });
  return { users, ada, change, input, published };
}

describe("changing the password while signed in", () => {
  test("sets it, raises the token version and keeps the asking session", async () => {
    const t = await setUp();
    await t.change(t.input("old pass phrase", "new pass phrase"));
    const [stored] = t.users.all;
    expect(stored).toMatchObject({
      passwordHash: "plain:new pass phrase",
      tokenVersion: 1,
      keptSession: { id: "session-1", version: 0 },
    });
    expect(t.published).toEqual([ACCOUNTS_TOPIC]);
  });

  test("a wrong current password is refused and nothing changes", async () => {
    const t = await setUp();
    await expect(t.change(t.input("wrong pass phrase", "new pass phrase"))).rejects.toMatchObject({
      code: "CURRENT_PASSWORD_WRONG",
    });
    expect(t.users.all[0]).toMatchObject({ passwordHash: "plain:old pass phrase", tokenVersion: 0 });
  });

  test("a new password the policy refuses names its rule at /new_password, before the current one is tried", async () => {
    const t = await setUp();
    await expect(t.change(t.input("wrong pass phrase", "Password1234"))).rejects.toMatchObject({
      errors: [{ path: "/new_password", code: "PASSWORD_TOO_COMMON" }],
    });
    await expect(t.change(t.input("old pass phrase", "short"))).rejects.toMatchObject({
      errors: [{ path: "/new_password", code: "PASSWORD_TOO_SHORT" }],
    });
    expect(t.users.all[0]?.tokenVersion).toBe(0);
  });
});
