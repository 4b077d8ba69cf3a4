import { describe, expect, test } from "bun:test";
import { releaseHeldDeliveriesJob } from "../../../application/fulfillment/jobs.ts";
import { LINK_WINDOW_MS } from "../../../application/identity/account-links.ts";
import {
  makeConfirmEmail,
  makeRequestEmailChange,
  makeRequestEmailVerification,
  makeSendEmailChangedNotice,
  makeSendEmailLink,
} from "../../../application/identity/email-links.ts";
import { emailChangedJob, emailLinkJob } from "../../../application/identity/jobs.ts";
import type { NewEmail } from "../../../application/mail/ports.ts";
import { sha256Hex } from "../../../application/shared/secrets-in-links.ts";
import { createInMemoryEmailLinks } from "../../support/fakes/in-memory-email-links.ts";
import { createInMemorySignInThrottle } from "../../support/fakes/in-memory-sign-in-throttle.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createPlainPasswordHasher } from "../../support/fakes/plain-password-hasher.ts";
import { createRecordingJobScheduler } from "../../support/fakes/recording-job-scheduler.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun } from "../../support/jobs.ts";

async function setUp() {
  const users = createInMemoryUserRepository();
  const links = createInMemoryEmailLinks(users);
  const time = createMovableClock();
  const log = createRecordingLog();
  const jobs = createRecordingJobScheduler();
  const emails: NewEmail[] = [];
  const queue = {
    async queue(email: NewEmail) {
      if (!emails.some((queued) => queued.key === email.key)) emails.push(email);
    },
  };
  const ada = await users.insert({
    email: "ada@example.com",
    name: "Ada",
    role: "customer",
    passwordHash: "plain:pass phrase",
  });
  if (!ada) throw new Error("seed failed");
  const deps = {
    users,
    hasher: createPlainPasswordHasher(),
    signInThrottle: createInMemorySignInThrottle(),
    jobs,
    clock: time.clock,
  };
  const send = makeSendEmailLink({
    users,
    links,
    mail: { queue, publicBaseUrl: "https://shop.example" },
    ttlSeconds: 86_400,
    clock: time.clock,
    log,
  });
  /** The token of the last link emailed. */
  const lastToken = () =>
    new URL(emails.at(-1)?.data.verify_url ?? emails.at(-1)?.data.confirm_url ?? "").searchParams.get("token") ?? "";
  return {
    ada,
    users,
    links,
    time,
    log,
    jobs,
    emails,
    send,
    lastToken,
    requestVerification: makeRequestEmailVerification({ users, jobs }),
    requestChange: makeRequestEmailChange(deps),
    confirm: makeConfirmEmail({ links, clock: time.clock }),
    notice: makeSendEmailChangedNotice({ users, mail: { queue }, log }),
  };
}

describe("verifying an address", () => {
  test("the link job emails a link to the verify page; only its hash is stored", async () => {
    const t = await setUp();
    await t.send({ user_id: t.ada.id, email: t.ada.email, purpose: "verify" }, firstRun({ jobId: "j1" }));
    expect(t.emails).toEqual([
      {
        key: "email-link:j1",
        template: "account.verify_email",
        to: "ada@example.com",
        data: {
          customer_name: "Ada",
          verify_url: expect.stringMatching(/^https:\/\/shop\.example\/account\/verify-email\?token=[\w-]{43}$/),
          valid_for: "24 hours",
        },
      },
    ]);
    expect(t.links.issued.map((link) => link.tokenHash)).toEqual([await sha256Hex(t.lastToken())]);
  });

  test("opening the link verifies the address and releases held deliveries in the same transaction", async () => {
    const t = await setUp();
    await t.send({ user_id: t.ada.id, email: t.ada.email, purpose: "verify" }, firstRun());
    await t.confirm({ token: t.lastToken() });
    expect((await t.users.findById(t.ada.id))?.emailVerified).toBe(true);
    expect(t.links.jobs.all()).toEqual([releaseHeldDeliveriesJob({ customer_id: t.ada.id })]);
    await expect(t.confirm({ token: t.lastToken() })).rejects.toMatchObject({ code: "EMAIL_LINK_INVALID" });
  });

  test("nothing is sent for a verified address, an address the account left, or past the cap", async () => {
    const t = await setUp();
    await t.send({ user_id: t.ada.id, email: "old@example.com", purpose: "verify" }, firstRun({ jobId: "0" }));
    for (const jobId of ["1", "2", "3", "4"]) {
      await t.send({ user_id: t.ada.id, email: t.ada.email, purpose: "verify" }, firstRun({ jobId }));
    }
    expect(t.emails).toHaveLength(3);
    expect(t.log.messages()).toContain("email links capped for this account: no link sent");
    t.time.advance(LINK_WINDOW_MS + 1);
    await t.confirm({ token: t.lastToken() });
    await t.send({ user_id: t.ada.id, email: t.ada.email, purpose: "verify" }, firstRun({ jobId: "5" }));
    expect(t.emails).toHaveLength(3);
    await expect(t.requestVerification(t.ada.id)).rejects.toMatchObject({ code: "EMAIL_ALREADY_VERIFIED" });
  });

  test("asking again enqueues a link job for the account's own address", async () => {
    const t = await setUp();
    await t.requestVerification(t.ada.id);
    expect(t.jobs.all()).toEqual([emailLinkJob({ user_id: t.ada.id, email: "ada@example.com", purpose: "verify" })]);
  });
});

describe("changing the address", () => {
  const change = (email: string, password = "pass phrase") => ({ userId: "", password, email, client: "10.0.0.1" });

  test("needs the password, a new well-formed address nobody has", async () => {
    const t = await setUp();
    await t.users.insert({ email: "bob@example.com", name: "Bob", role: "customer", passwordHash: "plain:x" });
    const ask = (email: string, password?: string) => t.requestChange({ ...change(email, password), userId: t.ada.id });
    await expect(ask("new@example.com", "wrong")).rejects.toMatchObject({ code: "CURRENT_PASSWORD_WRONG" });
    await expect(ask("not an address")).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(ask("ADA@example.com")).rejects.toMatchObject({ errors: [{ code: "EMAIL_UNCHANGED" }] });
    await expect(ask("Bob@Example.com")).rejects.toMatchObject({ code: "EMAIL_ALREADY_REGISTERED" });
    await ask(" New@Example.com ");
    expect(t.jobs.all()).toEqual([emailLinkJob({ user_id: t.ada.id, email: "new@example.com", purpose: "change" })]);
  });

  test("the link goes to the new address; opening it moves the account and tells the previous one", async () => {
    const t = await setUp();
    await t.send({ user_id: t.ada.id, email: "verify-me@example.com", purpose: "verify" }, firstRun({ jobId: "x" }));
    await t.send({ user_id: t.ada.id, email: "new@example.com", purpose: "change" }, firstRun({ jobId: "j2" }));
    expect(t.emails).toEqual([
      {
        key: "email-link:j2",
        template: "account.confirm_email_change",
        to: "new@example.com",
        data: expect.objectContaining({
          customer_name: "Ada",
          previous_email: "ada@example.com",
          valid_for: "24 hours",
        }),
      },
    ]);
    await t.confirm({ token: t.lastToken() });
    expect(await t.users.findById(t.ada.id)).toMatchObject({ email: "new@example.com", emailVerified: true });
    expect(t.links.jobs.all()).toEqual([
      releaseHeldDeliveriesJob({ customer_id: t.ada.id }),
      emailChangedJob({ user_id: t.ada.id, previous_email: "ada@example.com", email: "new@example.com" }),
    ]);
    await t.notice(
      { user_id: t.ada.id, previous_email: "ada@example.com", email: "new@example.com" },
      firstRun({ jobId: "n1" }),
    );
    expect(t.emails.at(-1)).toEqual({
      key: "email-changed:n1",
      template: "account.email_changed",
      to: "ada@example.com",
      data: { customer_name: "Ada", previous_email: "ada@example.com", new_email: "new@example.com" },
    });
  });

  test("an address taken before the link was opened is refused, and the account keeps its own", async () => {
    const t = await setUp();
    await t.send({ user_id: t.ada.id, email: "new@example.com", purpose: "change" }, firstRun());
    await t.users.insert({ email: "new@example.com", name: "Squatter", role: "customer", passwordHash: "plain:x" });
    await expect(t.confirm({ token: t.lastToken() })).rejects.toMatchObject({ code: "EMAIL_ALREADY_REGISTERED" });
    expect((await t.users.findById(t.ada.id))?.email).toBe("ada@example.com");
    expect(t.links.jobs.all()).toEqual([]);
  });
});
