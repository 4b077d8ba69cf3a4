import { describe, expect, test } from "bun:test";
import { emailLinkJob } from "../../../application/identity/jobs.ts";
import { makeRegisterCustomer } from "../../../application/identity/register-customer.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createListedCommonPasswords } from "../../support/fakes/listed-common-passwords.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";
import { createRecordingJobScheduler } from "../../support/fakes/recording-job-scheduler.ts";

function setup() {
  const users = createInMemoryUserRepository();
  const hasher = createPlainPasswordHasher();
  const commonPasswords = createListedCommonPasswords(["password1234"]);
  const jobs = createRecordingJobScheduler();
  return { users, hasher, jobs, register: makeRegisterCustomer({ users, hasher, commonPasswords, jobs }) };
}

const ada = { email: "ada@example.com", password: "correct horse", name: "Ada" };

describe("registerCustomer", () => {
  test("stores an enabled customer with the normalized email and a hashed password", async () => {
    const { register, users } = setup();
    const account = await register({ email: "  Ada@Example.COM ", password: "correct horse", name: "  Ada " });
    expect(account).toMatchObject({
      email: "ada@example.com",
      name: "Ada",
      role: "customer",
      disabled: false,
      tokenVersion: 0,
    });
    expect(users.all).toHaveLength(1);
    expect(users.all[0]).toMatchObject({ id: account.id, passwordHash: "plain:correct horse" });
  });

  test("sends the new address a verification link; the account starts unverified", async () => {
    const { register, jobs } = setup();
    const account = await register(ada);
    expect(account.emailVerified).toBe(false);
    expect(jobs.all()).toEqual([emailLinkJob({ user_id: account.id, email: "ada@example.com", purpose: "verify" })]);
  });

  test("returns the account without its password hash", async () => {
    expect(await setup().register(ada)).not.toHaveProperty("passwordHash");
  });

  test("a taken email, in any case, is EMAIL_ALREADY_REGISTERED and the first account stays as it was", async () => {
    const { register, users } = setup();
    const first = await register(ada);
    await expect(register({ ...ada, email: " ADA@example.com", password: "another password" })).rejects.toMatchObject({
      code: "EMAIL_ALREADY_REGISTERED",
    });
    expect(users.all).toHaveLength(1);
    expect(users.all[0]).toMatchObject({ id: first.id, passwordHash: "plain:correct horse" });
  });

  test("refuses every invalid field at once, before hashing or storing anything", async () => {
    const { register, users, hasher } = setup();
    await expect(register({ email: "not-an-email", password: "short", name: " " })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [
        { path: "/email", code: "INVALID_EMAIL" },
        { path: "/password", code: "PASSWORD_TOO_SHORT" },
        { path: "/name", code: "INVALID_NAME" },
      ],
    });
    expect(hasher.hashed).toEqual([]);
    expect(users.all).toEqual([]);
  });

  test("refuses a password on the list of common ones, in any case, naming the rule", async () => {
    const { register, users } = setup();
    await expect(register({ ...ada, password: "PassWord1234" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "/password", code: "PASSWORD_TOO_COMMON" }],
    });
    expect(users.all).toEqual([]);
  });
});
