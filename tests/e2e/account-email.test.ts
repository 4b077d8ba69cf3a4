import { describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import { eventually, http, useE2e } from "../support/e2e.ts";
import { createMovableClock } from "../support/fakes/movable-clock.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";

const smtp = await useSmtpInbox();

const db = useTestDatabase();
const time = createMovableClock(new Date());
const e2e = useE2e(db, {
  env: {
    ...smtp.env,
    AUTH_RATE_LIMIT_BURST: "100000",
    AUTH_RATE_LIMIT_PER_SECOND: "100000",
  },
  clock: time.clock,
});

const PASSWORD = "the first passphrase";
const NEW_PASSWORD = "a second passphrase";

async function customer() {
  const email = `acct-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email, password: PASSWORD, name: "Ada" },
  });
  expect(registered.status).toBe(201);
  return { email, token: registered.body.token as string };
}

const signIn = (email: string, password: string) =>
  http(e2e.url, "POST", "/api/auth/login", { body: { email, password } });
const me = (token: string) => http(e2e.url, "GET", "/api/me", { token });
const confirm = (token: string) => http(e2e.url, "POST", "/api/auth/verify-email/confirm", { body: { token } });

/** The token of the `count`th mail to `email` whose subject is `subject`, once it arrived. */
async function linkFrom(email: string, subject: string, count = 1): Promise<string> {
  const mails = await eventually(
    async () => {
      const found = smtp.inbox.to(email).filter((mail) => mail.subject === subject);
      return found.length >= count && found;
    },
    8000,
    `"${subject}" to ${email}`,
  );
  const text = mails[count - 1]?.text ?? "";
  const link = /https?:\/\/\S+\/account\/verify-email\?token=\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no address link in: ${text}`);
  return new URL(link).searchParams.get("token") ?? "";
}

const VERIFY = "Confirm your email address";
const CONFIRM_CHANGE = "Confirm your new email address";

describe("email verification over HTTP, with real SMTP and PostgreSQL", () => {
  test("registration emails a link; opening it verifies the address, once", async () => {
    const ada = await customer();
    expect((await me(ada.token)).body.email_verified).toBe(false);
    const token = await linkFrom(ada.email, VERIFY);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(smtp.inbox.to(ada.email)[0]?.text).toContain(`${e2e.url}/account/verify-email?token=`);
    expect(smtp.inbox.to(ada.email)[0]?.text).toContain("within 24 hours");

    expect((await confirm(token)).status).toBe(204);
    expect((await me(ada.token)).body.email_verified).toBe(true);
    const again = await confirm(token);
    expect([again.status, again.body.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    const more = await http(e2e.url, "POST", "/api/auth/verify-email", { token: ada.token });
    expect([more.status, more.body.code]).toEqual([409, "EMAIL_ALREADY_VERIFIED"]);
  });

  test("a new link can be asked for; an expired or unknown one is 400 EMAIL_LINK_INVALID", async () => {
    const ada = await customer();
    const first = await linkFrom(ada.email, VERIFY);
    const asked = await http(e2e.url, "POST", "/api/auth/verify-email", { token: ada.token });
    expect(asked.status).toBe(202);
    const second = await linkFrom(ada.email, VERIFY, 2);
    expect(second).not.toBe(first);

    time.advance(24 * 3_600_000);
    const expired = await confirm(second);
    expect([expired.status, expired.body.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    const unknown = await confirm("A".repeat(43));
    expect([unknown.status, unknown.body.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    expect((await me(ada.token)).body.email_verified).toBe(false);
    expect((await http(e2e.url, "POST", "/api/auth/verify-email")).status).toBe(401);
  });

  test("no link is kept in the database: a hash for the link, and the email's copy erased once sent", async () => {
    const ada = await customer();
    const token = await linkFrom(ada.email, VERIFY);
    await eventually(async () => {
      const [row] = await db.current.sql<{ state: string }[]>`
        select state from emails where recipient = ${ada.email} and template = 'account.verify_email'`;
      return row?.state === "sent";
    });
    const [found] = await db.current.sql<{ n: number }[]>`
      select (select count(*) from emails where data::text like ${`%${token}%`})
        + (select count(*) from email_links where token_hash like ${`%${token}%`})
        + (select count(*) from jobs where payload::text like ${`%${token}%`}) as n`;
    expect(Number(found?.n)).toBe(0);
  });
});

describe("password change over HTTP", () => {
  test("needs the current password; this session stays signed in, every other one ends", async () => {
    const ada = await customer();
    const other = await signIn(ada.email, PASSWORD);
    expect(other.status).toBe(200);

    const wrong = await http(e2e.url, "POST", "/api/me/password", {
      token: ada.token,
      body: { current_password: "not the passphrase", new_password: NEW_PASSWORD },
    });
    expect([wrong.status, wrong.body.code]).toEqual([403, "CURRENT_PASSWORD_WRONG"]);
    const weak = await http(e2e.url, "POST", "/api/me/password", {
      token: ada.token,
      body: { current_password: PASSWORD, new_password: "Password1234" },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors).toEqual([
      { path: "/new_password", code: "PASSWORD_TOO_COMMON", message: expect.any(String) },
    ]);
    expect((await me(other.body.token)).status).toBe(200);

    const changed = await http(e2e.url, "POST", "/api/me/password", {
      token: ada.token,
      body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect([changed.status, changed.body]).toEqual([204, undefined]);
    expect((await me(ada.token)).status).toBe(200);
    expect((await me(other.body.token)).status).toBe(401);
    expect((await signIn(ada.email, PASSWORD)).status).toBe(401);
    const fresh = await signIn(ada.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);

    // Changed again from the same session: it is still the one kept; the session signed in between ends.
    const third = await http(e2e.url, "POST", "/api/me/password", {
      token: ada.token,
      body: { current_password: NEW_PASSWORD, new_password: "a third passphrase" },
    });
    expect(third.status).toBe(204);
    expect((await me(ada.token)).status).toBe(200);
    expect((await me(fresh.body.token)).status).toBe(401);

    // Signing out everywhere ends the kept session too.
    expect((await http(e2e.url, "POST", "/api/auth/logout-all", { token: ada.token })).status).toBe(204);
    expect((await me(ada.token)).status).toBe(401);
  });

  test("wrong current passwords count as failed sign-ins: the account's wait applies", async () => {
    const ada = await customer();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wrong = await http(e2e.url, "POST", "/api/me/password", {
        token: ada.token,
        body: { current_password: `guess number ${i}`, new_password: NEW_PASSWORD },
      });
      answers.push(wrong.status);
    }
    expect(answers.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(answers[5]).toBe(429);
  });
});

describe("email change over HTTP", () => {
  test("a link to the new address makes the change; the previous address is told", async () => {
    const ada = await customer();
    const verifyOld = await linkFrom(ada.email, VERIFY);
    const next = `moved-${crypto.randomUUID()}@example.com`;

    const wrong = await http(e2e.url, "POST", "/api/me/email", {
      token: ada.token,
      body: { password: "not the passphrase", email: next },
    });
    expect([wrong.status, wrong.body.code]).toEqual([403, "CURRENT_PASSWORD_WRONG"]);
    const taken = await customer();
    const clash = await http(e2e.url, "POST", "/api/me/email", {
      token: ada.token,
      body: { password: PASSWORD, email: taken.email.toUpperCase() },
    });
    expect([clash.status, clash.body.code]).toEqual([409, "EMAIL_ALREADY_REGISTERED"]);
    const same = await http(e2e.url, "POST", "/api/me/email", {
      token: ada.token,
      body: { password: PASSWORD, email: ada.email },
    });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual([{ path: "/email", code: "EMAIL_UNCHANGED", message: expect.any(String) }]);

    const asked = await http(e2e.url, "POST", "/api/me/email", {
      token: ada.token,
      body: { password: PASSWORD, email: ` ${next.toUpperCase()} ` },
    });
    expect(asked.status).toBe(202);
    const token = await linkFrom(next, CONFIRM_CHANGE);
    expect(smtp.inbox.to(next)[0]?.text).toContain(ada.email);
    expect((await me(ada.token)).body.email).toBe(ada.email);

    expect((await confirm(token)).status).toBe(204);
    const after = await me(ada.token);
    expect([after.body.email, after.body.email_verified]).toEqual([next, true]);
    const notice = await eventually(
      async () => smtp.inbox.to(ada.email).find((mail) => mail.subject === "Your account's email address was changed"),
      8000,
      "the notice to the previous address",
    );
    expect(notice.text).toContain(next);
    expect((await signIn(next, PASSWORD)).status).toBe(200);
    expect((await signIn(ada.email, PASSWORD)).status).toBe(401);
    // The change spent the links to the previous address: it cannot be verified back into the account.
    expect((await confirm(verifyOld)).body.code).toBe("EMAIL_LINK_INVALID");
    expect((await me(ada.token)).body.email).toBe(next);
  });

  test("an address another account took before the link was opened is 409, and nothing changes", async () => {
    const ada = await customer();
    const next = `race-${crypto.randomUUID()}@example.com`;
    const asked = await http(e2e.url, "POST", "/api/me/email", {
      token: ada.token,
      body: { password: PASSWORD, email: next },
    });
    expect(asked.status).toBe(202);
    const token = await linkFrom(next, CONFIRM_CHANGE);
    const squatter = await http(e2e.url, "POST", "/api/auth/register", {
      body: { email: next, password: PASSWORD, name: "Squatter" },
    });
    expect(squatter.status).toBe(201);
    const refused = await confirm(token);
    expect([refused.status, refused.body.code]).toEqual([409, "EMAIL_ALREADY_REGISTERED"]);
    expect((await me(ada.token)).body.email).toBe(ada.email);
  });
});
