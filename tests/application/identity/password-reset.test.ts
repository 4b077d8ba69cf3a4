import { describe, expect, test } from "bun:test";
import { LINK_WINDOW_MS } from "../../../application/identity/account-links.ts";
import { ACCOUNTS_TOPIC } from "../../../application/identity/account-states.ts";
import { passwordResetJob } from "../../../application/identity/jobs.ts";
import {
  makeRequestPasswordReset,
  makeResetPassword,
  makeSendPasswordReset,
} from "../../../application/identity/password-reset.ts";
import type { NewEmail } from "../../../application/mail/ports.ts";
import { sha256Hex } from "../../../application/shared/secrets-in-links.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryPasswordResets } from "../../support/fakes/in-memory-password-resets.ts";
import { createInMemorySignInThrottle } from "../../support/fakes/in-memory-sign-in-throttle.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createListedCommonPasswords } from "../../support/fakes/listed-common-passwords.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";
import { createRecordingJobScheduler } from "../../support/fakes/recording-job-scheduler.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun } from "../../support/jobs.ts";

async function setUp(options: { mail?: boolean } = {}) {
  const users = createInMemoryUserRepository();
  const resets = createInMemoryPasswordResets(users);
  const time = createMovableClock();
  const log = createRecordingLog();
  const changes = createInMemoryChangeSignal();
  const signInThrottle = createInMemorySignInThrottle();
  const hasher = createPlainPasswordHasher();
  const jobs = createRecordingJobScheduler();
  const emails: NewEmail[] = [];
  const ada = await users.insert({
    email: "ada@example.com",
    name: "Ada",
    role: "customer",
    passwordHash: "plain:old password",
  });
  if (!ada) throw new Error("seed failed");
  const send = makeSendPasswordReset({
    users,
    resets,
    mail:
      options.mail === false
        ? undefined
        : {
            queue: {
              async queue(email) {
                if (!emails.some((queued) => queued.key === email.key)) emails.push(email);
              },
            },
            publicBaseUrl: "https://shop.example",
          },
    ttlSeconds: 3600,
    clock: time.clock,
    log,
  });
  const reset = makeResetPassword({
    resets,
    hasher,
    commonPasswords: createListedCommonPasswords(["password1234"]),
    signInThrottle,
    changes,
    clock: time.clock,
  });
  /** The token of the last link emailed. */
  const lastToken = () => new URL(emails.at(-1)?.data.reset_url ?? "https://x.example").searchParams.get("token") ?? "";
  return {
    users,
    resets,
    time,
    log,
    changes,
    signInThrottle,
    hasher,
    jobs,
    emails,
    ada,
    send,
    reset,
    lastToken,
    request: makeRequestPasswordReset({ jobs }),
  };
}

describe("asking for a password reset", () => {
  test("enqueues the same job for any well-formed address, normalized, and nothing else", async () => {
    const t = await setUp();
    await t.request({ email: "  Ada@Example.com " });
    await t.request({ email: "nobody@example.com" });
    expect(t.jobs.all().map((job) => [job.kind, job.payload])).toEqual([
      ["password_reset", { email: "ada@example.com" }],
      ["password_reset", { email: "nobody@example.com" }],
    ]);
    expect(t.resets.issued).toEqual([]);
  });

  test("refuses what is not one address", async () => {
    const t = await setUp();
    await expect(t.request({ email: "x,eve@victim.example" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "/email", code: "INVALID_EMAIL" }],
    });
    expect(t.jobs.all()).toEqual([]);
  });
});

describe("the password reset job", () => {
  test("emails a known address a link whose token is random, stored only as its hash, valid for the TTL", async () => {
    const t = await setUp();
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "17" }));
    expect(t.emails).toEqual([
      {
        key: "password-reset:17",
        template: "account.password_reset",
        to: "ada@example.com",
        data: { customer_name: "Ada", reset_url: expect.any(String), valid_for: "1 hour" },
      },
    ]);
    const link = new URL(t.emails[0]?.data.reset_url ?? "");
    expect(`${link.origin}${link.pathname}`).toBe("https://shop.example/account/reset-password");
    const token = t.lastToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(t.resets.issued).toEqual([
      {
        userId: t.ada.id,
        tokenHash: await sha256Hex(token),
        createdAt: t.time.now(),
        expiresAt: new Date(t.time.now().getTime() + 3_600_000),
        usedAt: null,
      },
    ]);
    expect(JSON.stringify(t.resets.issued)).not.toContain(token);
  });

  test("sends nothing for an unknown or a disabled address", async () => {
    const t = await setUp();
    await t.send({ email: "nobody@example.com" }, firstRun());
    await t.users.changeAccess(t.ada.id, { disabled: true });
    await t.send({ email: "ada@example.com" }, firstRun());
    expect(t.emails).toEqual([]);
    expect(t.resets.issued).toEqual([]);
  });

  test("sends one email per job however often it runs", async () => {
    const t = await setUp();
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "5" }));
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "5", attempt: 2 }));
    expect(t.emails).toHaveLength(1);
  });

  test("sends at most three links per account in 15 minutes, then again after", async () => {
    const t = await setUp();
    for (const jobId of ["1", "2", "3", "4"]) await t.send({ email: "ada@example.com" }, firstRun({ jobId }));
    expect(t.emails).toHaveLength(3);
    expect(t.log.messages()).toContain("password reset links capped for this account: no link sent");
    t.time.advance(LINK_WINDOW_MS + 1);
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "5" }));
    expect(t.emails).toHaveLength(4);
  });

  test("without mail logs the request and sends nothing", async () => {
    const t = await setUp({ mail: false });
    await t.send({ email: "ada@example.com" }, firstRun());
    expect(t.resets.issued).toEqual([]);
    expect(t.log.messages()).toEqual(["password reset asked while email is off: no link can be sent"]);
  });

  test("reads its payload back from the stored job", () => {
    expect(passwordResetJob.read({ email: "ada@example.com" })).toEqual({ email: "ada@example.com" });
    expect(() => passwordResetJob.read({})).toThrow("no valid email");
  });
});

describe("setting a new password with the link", () => {
  test("sets it, spends the link, ends every session and forgets failed sign-ins", async () => {
    const t = await setUp();
    await t.send({ email: "ada@example.com" }, firstRun());
    await t.signInThrottle.take("ada@example.com", "10.0.0.1", t.time.now());
    await t.reset({ token: t.lastToken(), password: "a brand new passphrase" });
    const stored = await t.users.findByEmail("ada@example.com");
    expect(stored).toMatchObject({ passwordHash: "plain:a brand new passphrase", tokenVersion: 1 });
    expect(t.changes.published).toEqual([ACCOUNTS_TOPIC]);
    expect(await t.signInThrottle.take("ada@example.com", "10.0.0.1", t.time.now())).toMatchObject({ allowed: true });
    expect(t.resets.issued[0]?.usedAt).toEqual(t.time.now());
  });

  test("a link works once: the second use is RESET_TOKEN_INVALID and changes nothing", async () => {
    const t = await setUp();
    await t.send({ email: "ada@example.com" }, firstRun());
    const token = t.lastToken();
    await t.reset({ token, password: "a brand new passphrase" });
    await expect(t.reset({ token, password: "another new passphrase" })).rejects.toMatchObject({
      code: "RESET_TOKEN_INVALID",
    });
    expect(await t.users.findByEmail("ada@example.com")).toMatchObject({
      passwordHash: "plain:a brand new passphrase",
      tokenVersion: 1,
    });
  });

  test("an expired link, an unknown token and a link spent by another reset are RESET_TOKEN_INVALID", async () => {
    const t = await setUp();
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "1" }));
    const first = t.lastToken();
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "2" }));
    const second = t.lastToken();
    await expect(t.reset({ token: "never issued", password: "a brand new passphrase" })).rejects.toMatchObject({
      code: "RESET_TOKEN_INVALID",
    });
    await t.reset({ token: second, password: "a brand new passphrase" });
    await expect(t.reset({ token: first, password: "another new passphrase" })).rejects.toMatchObject({
      code: "RESET_TOKEN_INVALID",
    });
    await t.send({ email: "ada@example.com" }, firstRun({ jobId: "3" }));
    t.time.advance(3_600_000);
    await expect(t.reset({ token: t.lastToken(), password: "another new passphrase" })).rejects.toMatchObject({
      code: "RESET_TOKEN_INVALID",
    });
    expect(t.changes.published).toEqual([ACCOUNTS_TOPIC]);
  });

  test("a password the policy refuses names the rule and leaves the link usable", async () => {
    const t = await setUp();
    await t.send({ email: "ada@example.com" }, firstRun());
    const token = t.lastToken();
    await expect(t.reset({ token, password: "Password1234" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "/password", code: "PASSWORD_TOO_COMMON" }],
    });
    await expect(t.reset({ token, password: "too short" })).rejects.toMatchObject({
      errors: [{ path: "/password", code: "PASSWORD_TOO_SHORT" }],
    });
    expect(t.hasher.hashed).toEqual([]);
    await t.reset({ token, password: "a brand new passphrase" });
    expect(t.hasher.hashed).toEqual(["a brand new passphrase"]);
  });
});
