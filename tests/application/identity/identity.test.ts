import { describe, expect, test } from "bun:test";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { ACCOUNTS_TOPIC } from "../../../application/identity/account-states.ts";
import { makeAuthenticate } from "../../../application/identity/authenticate.ts";
import { makeChangeAccess } from "../../../application/identity/change-access.ts";
import { makeEnsureAdmin } from "../../../application/identity/ensure-admin.ts";
import { makeGetUser } from "../../../application/identity/get-user.ts";
import { makeLogOutEverywhere } from "../../../application/identity/log-out-everywhere.ts";
import { makeRegisterCustomer } from "../../../application/identity/register-customer.ts";
import { AccountDisabled, AdminSelfLockout } from "../../../domain/identity/account.ts";
import { EmailAlreadyRegistered, InvalidCredentials, UserNotFound } from "../../../domain/identity/user.ts";
import { ValidationFailed } from "../../../domain/shared/domain-error.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";

function setup() {
  const users = createInMemoryUserRepository();
  const hasher = createPlainPasswordHasher();
  const changes = createInProcessChangeSignal();
  const signals: string[] = [];
  changes.subscribe(ACCOUNTS_TOPIC, () => signals.push(ACCOUNTS_TOPIC));
  return {
    users,
    hasher,
    signals,
    changeAccess: makeChangeAccess({ users, changes }),
    logOutEverywhere: makeLogOutEverywhere({ users, changes }),
    register: makeRegisterCustomer({ users, hasher }),
    authenticate: makeAuthenticate({ users, hasher }),
    ensureAdmin: makeEnsureAdmin({ users, hasher }),
    getUser: makeGetUser({ users }),
  };
}

const ada = { email: "ada@example.com", password: "correct horse", name: "Ada" };

describe("registerCustomer", () => {
  test("stores a customer with a hashed password", async () => {
    const { register, users } = setup();
    const user = await register(ada);
    expect(user).toMatchObject({ email: "ada@example.com", role: "customer", name: "Ada" });
    expect(users.all[0]?.passwordHash).toBe("plain:correct horse");
  });

  test("refuses a second account for the same email in any case", async () => {
    const { register } = setup();
    await register(ada);
    await expect(register({ ...ada, email: "ADA@example.com" })).rejects.toBeInstanceOf(EmailAlreadyRegistered);
  });

  test("validates before hashing", async () => {
    const { register, hasher } = setup();
    await expect(register({ ...ada, password: "short" })).rejects.toBeInstanceOf(ValidationFailed);
    expect(hasher.hashed).toEqual([]);
  });
});

describe("authenticate", () => {
  test("returns the user for the right password, without its hash", async () => {
    const { register, authenticate } = setup();
    await register(ada);
    const user = await authenticate({ email: " ADA@example.com", password: "correct horse" });
    expect(user.email).toBe("ada@example.com");
    expect(user).not.toHaveProperty("passwordHash");
  });

  test("refuses a wrong password and an unknown email alike", async () => {
    const { register, authenticate } = setup();
    await register(ada);
    await expect(authenticate({ email: ada.email, password: "wrong password" })).rejects.toBeInstanceOf(
      InvalidCredentials,
    );
    await expect(authenticate({ email: "nobody@example.com", password: "x" })).rejects.toBeInstanceOf(
      InvalidCredentials,
    );
  });

  test("returns the token version to sign into the token", async () => {
    const { register, authenticate, logOutEverywhere } = setup();
    const user = await register(ada);
    await logOutEverywhere(user.id);
    expect((await authenticate(ada)).tokenVersion).toBe(1);
  });

  test("refuses a disabled account, but only once the password matched", async () => {
    const { register, authenticate, changeAccess } = setup();
    const user = await register(ada);
    await changeAccess("another-admin", user.id, { disabled: true });
    await expect(authenticate(ada)).rejects.toBeInstanceOf(AccountDisabled);
    await expect(authenticate({ ...ada, password: "wrong password" })).rejects.toBeInstanceOf(InvalidCredentials);
  });
});

describe("changeAccess and logOutEverywhere", () => {
  test("disabling raises the token version once, and every change signals the other instances", async () => {
    const { register, changeAccess, signals } = setup();
    const user = await register(ada);
    expect(await changeAccess("admin", user.id, { role: "admin" })).toMatchObject({ role: "admin", tokenVersion: 0 });
    expect(await changeAccess("admin", user.id, { disabled: true })).toMatchObject({ disabled: true, tokenVersion: 1 });
    expect(await changeAccess("admin", user.id, { disabled: true })).toMatchObject({ tokenVersion: 1 });
    expect(await changeAccess("admin", user.id, { disabled: false })).toMatchObject({
      disabled: false,
      tokenVersion: 1,
    });
    expect(signals).toHaveLength(4);
  });

  test("an admin cannot lock themselves out, and nothing changes", async () => {
    const { ensureAdmin, changeAccess, users, signals } = setup();
    const admin = await ensureAdmin({ email: "boss@example.com", password: "boss password" });
    await expect(changeAccess(admin.id, admin.id, { role: "customer" })).rejects.toBeInstanceOf(AdminSelfLockout);
    expect(users.all[0]).toMatchObject({ role: "admin", disabled: false });
    expect(signals).toEqual([]);
  });

  test("an unknown user is UserNotFound for both", async () => {
    const { changeAccess, logOutEverywhere } = setup();
    await expect(changeAccess("admin", crypto.randomUUID(), { disabled: true })).rejects.toBeInstanceOf(UserNotFound);
    await expect(logOutEverywhere(crypto.randomUUID())).rejects.toBeInstanceOf(UserNotFound);
  });
});

describe("ensureAdmin", () => {
  test("creates the admin, then updates its password and role on the next start", async () => {
    const { ensureAdmin, register, authenticate } = setup();
    await register({ ...ada, email: "boss@example.com" });
    const admin = await ensureAdmin({ email: "boss@example.com", password: "first password" });
    expect(admin.role).toBe("admin");
    await ensureAdmin({ email: "boss@example.com", password: "second password" });
    await expect(authenticate({ email: "boss@example.com", password: "first password" })).rejects.toBeInstanceOf(
      InvalidCredentials,
    );
    expect((await authenticate({ email: "boss@example.com", password: "second password" })).id).toBe(admin.id);
  });

  test("enables a disabled admin again", async () => {
    const { ensureAdmin, changeAccess, authenticate } = setup();
    const admin = await ensureAdmin({ email: "boss@example.com", password: "boss password" });
    await changeAccess("another-admin", admin.id, { role: "customer", disabled: true });
    expect(await ensureAdmin({ email: "boss@example.com", password: "boss password" })).toMatchObject({
      role: "admin",
      disabled: false,
    });
    expect((await authenticate({ email: "boss@example.com", password: "boss password" })).role).toBe("admin");
  });
});

test("getUser throws UserNotFound for an unknown id", async () => {
  await expect(setup().getUser(crypto.randomUUID())).rejects.toBeInstanceOf(UserNotFound);
});
