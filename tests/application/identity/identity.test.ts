import { describe, expect, test } from "bun:test";
import { makeAuthenticate } from "../../../application/identity/authenticate.ts";
import { makeEnsureAdmin } from "../../../application/identity/ensure-admin.ts";
import { makeGetUser } from "../../../application/identity/get-user.ts";
import { makeRegisterCustomer } from "../../../application/identity/register-customer.ts";
import { EmailAlreadyRegistered, InvalidCredentials, UserNotFound } from "../../../domain/identity/user.ts";
import { ValidationFailed } from "../../../domain/shared/domain-error.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";

function setup() {
  const users = createInMemoryUserRepository();
  const hasher = createPlainPasswordHasher();
  return {
    users,
    hasher,
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
});

test("getUser throws UserNotFound for an unknown id", async () => {
  await expect(setup().getUser(crypto.randomUUID())).rejects.toBeInstanceOf(UserNotFound);
});
