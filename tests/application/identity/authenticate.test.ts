import { describe, expect, test } from "bun:test";
import { makeAuthenticate } from "../../../application/identity/authenticate.ts";
import type { PasswordHasher } from "../../../application/identity/ports.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";

/** A stored customer, and a hasher that also remembers which hashes it verified against. */
async function setup() {
  const users = createInMemoryUserRepository();
  const plain = createPlainPasswordHasher();
  const verifiedAgainst: string[] = [];
  const hasher: PasswordHasher = {
    hash: plain.hash,
    verify: (password, hash) => {
      verifiedAgainst.push(hash);
      return plain.verify(password, hash);
    },
  };
  const ada = await users.insert({
    email: "ada@example.com",
    name: "Ada",
    role: "customer",
    passwordHash: await plain.hash("correct horse"),
  });
  if (!ada) throw new Error("seed failed");
  return { users, plain, verifiedAgainst, ada, authenticate: makeAuthenticate({ users, hasher }) };
}

describe("authenticate", () => {
  test("returns the account for the right password, found by its normalized email, without the hash", async () => {
    const { authenticate, ada } = await setup();
    const account = await authenticate({ email: "  ADA@example.com ", password: "correct horse" });
    expect(account).toEqual(ada);
    expect(account).not.toHaveProperty("passwordHash");
  });

  test("a wrong password and an unknown email get the same INVALID_CREDENTIALS answer", async () => {
    const { authenticate } = await setup();
    const wrong = authenticate({ email: "ada@example.com", password: "wrong horse" }).catch((e) => e);
    const unknown = authenticate({ email: "nobody@example.com", password: "correct horse" }).catch((e) => e);
    expect(await wrong).toMatchObject({ code: "INVALID_CREDENTIALS" });
    expect((await unknown).message).toBe((await wrong).message);
    expect((await unknown).code).toBe("INVALID_CREDENTIALS");
  });

  test("an unknown email is still checked against a hash, one decoy made once, so timing reveals nothing", async () => {
    const { authenticate, plain, verifiedAgainst } = await setup();
    for (let i = 0; i < 3; i += 1) {
      await expect(authenticate({ email: "nobody@example.com", password: "guess" })).rejects.toMatchObject({
        code: "INVALID_CREDENTIALS",
      });
    }
    expect(verifiedAgainst).toHaveLength(3);
    expect(new Set(verifiedAgainst).size).toBe(1);
    expect(plain.hashed).toHaveLength(2);
    expect(verifiedAgainst[0]).toBe(`plain:${plain.hashed[1]}`);
  });

  test("a disabled account is ACCOUNT_DISABLED, but only once the password matched", async () => {
    const { authenticate, users, ada } = await setup();
    await users.changeAccess(ada.id, { disabled: true });
    await expect(authenticate({ email: "ada@example.com", password: "correct horse" })).rejects.toMatchObject({
      code: "ACCOUNT_DISABLED",
    });
    await expect(authenticate({ email: "ada@example.com", password: "wrong horse" })).rejects.toMatchObject({
      code: "INVALID_CREDENTIALS",
    });
  });

  test("answers the account's current token version, to be signed into the token", async () => {
    const { authenticate, users, ada } = await setup();
    await users.revokeTokens(ada.id);
    await users.revokeTokens(ada.id);
    expect((await authenticate({ email: "ada@example.com", password: "correct horse" })).tokenVersion).toBe(2);
  });
});
