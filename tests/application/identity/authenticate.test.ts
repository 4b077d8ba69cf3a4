import { describe, expect, test } from "bun:test";
import { makeAuthenticate } from "../../../application/identity/authenticate.ts";
import type { PasswordHasher } from "../../../application/identity/ports.ts";
import { createInMemorySignInThrottle } from "../../support/fakes/in-memory-sign-in-throttle.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
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
  const signInThrottle = createInMemorySignInThrottle();
  const time = createMovableClock();
  const authenticateFrom = makeAuthenticate({ users, hasher, signInThrottle, clock: time.clock });
  /** From one address unless told otherwise. */
  const authenticate = (input: { email: string; password: string; client?: string }) =>
    authenticateFrom({ client: "192.0.2.1", ...input });
  return { users, plain, verifiedAgainst, ada, signInThrottle, time, authenticate };
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

  describe("per account, failed attempts back off", () => {
    type Authenticate = Awaited<ReturnType<typeof setup>>["authenticate"];
    const guess = (authenticate: Authenticate, password = "wrong horse", email = "ada@example.com", client?: string) =>
      authenticate({ email, password, ...(client ? { client } : {}) }).catch((error) => error);

    test("five attempts are free, then each waits twice as long, told in seconds, whatever the password", async () => {
      const { authenticate, time } = await setup();
      for (let i = 0; i < 5; i += 1) expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      // Even the right password is not checked while the account waits: a guess then learns nothing.
      expect(await guess(authenticate, "correct horse")).toMatchObject({
        code: "SIGN_IN_THROTTLED",
        retryAfterSeconds: 1,
      });
      time.advance(1000);
      expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      expect(await guess(authenticate)).toMatchObject({ code: "SIGN_IN_THROTTLED", retryAfterSeconds: 2 });
      time.advance(2000);
      expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      expect(await guess(authenticate)).toMatchObject({ code: "SIGN_IN_THROTTLED", retryAfterSeconds: 4 });
    });

    test("from one address the wait is capped at 15 minutes", async () => {
      const { authenticate, time } = await setup();
      const waits: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        const answer = await guess(authenticate);
        if (answer.code === "SIGN_IN_THROTTLED") {
          waits.push(answer.retryAfterSeconds);
          time.advance(answer.retryAfterSeconds * 1000);
        }
      }
      expect(Math.max(...waits)).toBe(900);
      expect(waits.slice(0, 4)).toEqual([1, 2, 4, 8]);
      expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      expect(await guess(authenticate, "correct horse")).toMatchObject({
        code: "SIGN_IN_THROTTLED",
        retryAfterSeconds: 900,
      });
      time.advance(900_000);
      expect(await guess(authenticate, "correct horse")).toMatchObject({ email: "ada@example.com" });
    });

    test("a wrong guess each time the wait lapses holds the owner back a minute at most, from another address", async () => {
      const { authenticate, time } = await setup();
      for (let elapsed = 0; elapsed < time.hours(24); ) {
        const answer = await guess(authenticate);
        if (answer.code === "SIGN_IN_THROTTLED") {
          time.advance(answer.retryAfterSeconds * 1000);
          elapsed += answer.retryAfterSeconds * 1000;
        }
      }
      expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      expect(await guess(authenticate, "correct horse", "ada@example.com", "198.51.100.20")).toMatchObject({
        code: "SIGN_IN_THROTTLED",
        retryAfterSeconds: 60,
      });
      time.advance(60_000);
      expect(await guess(authenticate, "correct horse", "ada@example.com", "198.51.100.20")).toMatchObject({
        email: "ada@example.com",
      });
      // The guesser's own wait stands.
      expect(await guess(authenticate)).toMatchObject({ code: "SIGN_IN_THROTTLED", retryAfterSeconds: 840 });
    });

    test("from many addresses, after 20 attempts the account waits 1 s, 2 s ... at most 60 s", async () => {
      const { authenticate, time } = await setup();
      const from = (i: number) => guess(authenticate, "wrong horse", "ada@example.com", `192.0.2.${i + 10}`);
      for (let i = 0; i < 20; i += 1) expect(await from(i)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      const waits: number[] = [];
      for (let i = 20; i < 40; i += 1) {
        const refused = await from(i);
        expect(refused).toMatchObject({ code: "SIGN_IN_THROTTLED" });
        waits.push(refused.retryAfterSeconds);
        time.advance(refused.retryAfterSeconds * 1000);
        expect(await from(i)).toMatchObject({ code: "INVALID_CREDENTIALS" });
      }
      expect(waits.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
      expect(Math.max(...waits)).toBe(60);
    });

    test("a successful sign-in clears the count", async () => {
      const { authenticate, signInThrottle } = await setup();
      for (let i = 0; i < 4; i += 1) await guess(authenticate);
      expect(await guess(authenticate, "correct horse")).toMatchObject({ email: "ada@example.com" });
      expect(signInThrottle.attempts.size).toBe(0);
      for (let i = 0; i < 5; i += 1) expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
    });

    test("each account counts on its own, by its normalized email; an unknown email counts the same way", async () => {
      const { authenticate } = await setup();
      for (let i = 0; i < 5; i += 1)
        await guess(authenticate, "wrong horse", i % 2 ? "ADA@example.com" : " ada@example.com");
      expect(await guess(authenticate)).toMatchObject({ code: "SIGN_IN_THROTTLED" });
      for (let i = 0; i < 5; i += 1) await guess(authenticate, "x", "nobody@example.com");
      expect(await guess(authenticate, "x", "nobody@example.com")).toMatchObject({ code: "SIGN_IN_THROTTLED" });
    });

    test("a day without attempts forgets the failures", async () => {
      const { authenticate, time } = await setup();
      for (let i = 0; i < 5; i += 1) await guess(authenticate);
      time.advance(time.hours(24));
      for (let i = 0; i < 4; i += 1) expect(await guess(authenticate)).toMatchObject({ code: "INVALID_CREDENTIALS" });
    });
  });
});
