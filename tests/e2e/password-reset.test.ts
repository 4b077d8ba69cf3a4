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
    // The enumeration check sends 100 requests from one address; the limit has its own test.
    AUTH_RATE_LIMIT_BURST: "100000",
    AUTH_RATE_LIMIT_PER_SECOND: "100000",
  },
  clock: time.clock,
});

const OLD_PASSWORD = "the old passphrase";
const NEW_PASSWORD = "a brand new passphrase";

async function customer() {
  const email = `reset-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email, password: OLD_PASSWORD, name: "Ada" },
  });
  expect(registered.status).toBe(201);
  return { email, token: registered.body.token as string };
}

const signIn = (email: string, password: string) =>
  http(e2e.url, "POST", "/api/auth/login", { body: { email, password } });

const askForReset = (email: string) => http(e2e.url, "POST", "/api/auth/password-reset", { body: { email } });

const confirm = (token: string, password = NEW_PASSWORD) =>
  http(e2e.url, "POST", "/api/auth/password-reset/confirm", { body: { token, password } });

/** The reset emails to `email` so far (registration also sends a verification email). */
const resetMails = (email: string) => smtp.inbox.to(email).filter((mail) => mail.subject === "Reset your password");

/** The token of the newest reset link emailed to `email`, once `count` have arrived. */
async function linkTokenFor(email: string, count = 1): Promise<string> {
  const mails = await eventually(
    async () => resetMails(email).length >= count && resetMails(email),
    8000,
    `mail to ${email}`,
  );
  const text = mails.at(-1)?.text ?? "";
  const link = /https?:\/\/\S+\/account\/reset-password\?token=\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no reset link in: ${text}`);
  return new URL(link).searchParams.get("token") ?? "";
}

/** Waits until every password reset job asked so far has run. */
const resetJobsDone = () =>
  eventually(async () => {
    const [row] = await db.current.sql<{ open: number }[]>`
      select count(*)::int as open from jobs where kind = 'password_reset' and state in ('pending', 'running')`;
    return row?.open === 0;
  });

describe("password reset over HTTP, with real SMTP and PostgreSQL", () => {
  test("a forgotten password is reset through the emailed link, every session ends, and only the new password works", async () => {
    const ada = await customer();
    const asked = await askForReset(`  ${ada.email.toUpperCase()} `);
    expect(asked.status).toBe(202);
    const token = await linkTokenFor(ada.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [mail] = resetMails(ada.email);
    expect(mail?.text).toContain(`${e2e.url}/account/reset-password?token=`);
    expect(mail?.text).toContain("within 1 hour");

    const done = await confirm(token);
    expect(done.status).toBe(204);
    expect((await http(e2e.url, "GET", "/api/me", { token: ada.token })).status).toBe(401);
    expect((await signIn(ada.email, OLD_PASSWORD)).status).toBe(401);
    const signedIn = await signIn(ada.email, NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect((await http(e2e.url, "GET", "/api/me", { token: signedIn.body.token })).status).toBe(200);
  });

  test("the token is kept nowhere in the database: a hash for the link, and the email's copy erased once sent", async () => {
    const ada = await customer();
    await askForReset(ada.email);
    const token = await linkTokenFor(ada.email);
    await eventually(async () => {
      const [row] = await db.current.sql<{ state: string }[]>`
        select state from emails where recipient = ${ada.email} and template = 'account.password_reset'`;
      return row?.state === "sent";
    });
    const [found] = await db.current.sql<{ n: number }[]>`
      select (select count(*) from emails where data::text like ${`%${token}%`})
        + (select count(*) from password_resets where token_hash like ${`%${token}%`})
        + (select count(*) from jobs where payload::text like ${`%${token}%`}) as n`;
    expect(Number(found?.n)).toBe(0);
    const hashes = await db.current.sql<{ token_hash: string }[]>`
      select token_hash from password_resets r join users u on u.id = r.user_id where u.email = ${ada.email}`;
    expect(hashes.map((row) => row.token_hash)).toEqual([new Bun.CryptoHasher("sha256").update(token).digest("hex")]);
    expect((await confirm(token)).status).toBe(204);
  });

  test("a link used twice, an expired link and an unknown token are 400 RESET_TOKEN_INVALID problems", async () => {
    const ada = await customer();
    await askForReset(ada.email);
    const used = await linkTokenFor(ada.email);
    expect((await confirm(used)).status).toBe(204);
    const again = await confirm(used, "yet another passphrase");
    expect([again.status, again.body.code]).toEqual([400, "RESET_TOKEN_INVALID"]);
    expect((await signIn(ada.email, "yet another passphrase")).status).toBe(401);

    await askForReset(ada.email);
    const late = await linkTokenFor(ada.email, 2);
    time.advance(3_600_000);
    const expired = await confirm(late, "yet another passphrase");
    expect([expired.status, expired.body.code]).toEqual([400, "RESET_TOKEN_INVALID"]);

    const unknown = await confirm("A".repeat(43));
    expect([unknown.status, unknown.body.code]).toEqual([400, "RESET_TOKEN_INVALID"]);
    expect((await signIn(ada.email, NEW_PASSWORD)).status).toBe(200);
  });

  test("a new password the policy refuses is a 422 naming the rule, and the link still works", async () => {
    const ada = await customer();
    await askForReset(ada.email);
    const token = await linkTokenFor(ada.email);
    for (const [password, rule] of [
      ["too short", "PASSWORD_TOO_SHORT"],
      ["Password1234", "PASSWORD_TOO_COMMON"],
      ["x".repeat(257), "PASSWORD_TOO_LONG"],
    ] as const) {
      const refused = await confirm(token, password);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ path: "/password", code: rule, message: expect.any(String) }]);
    }
    expect((await confirm(token)).status).toBe(204);
  });

  test("unknown and disabled addresses get the same 202 and no email", async () => {
    const ada = await customer();
    const stranger = `nobody-${crypto.randomUUID()}@example.com`;
    const asked = await askForReset(stranger);
    expect([asked.status, asked.body]).toEqual([202, undefined]);
    await db.current.sql`update users set disabled_at = now() where email = ${ada.email}`;
    expect((await askForReset(ada.email)).status).toBe(202);
    await resetJobsDone();
    await Bun.sleep(300);
    expect(smtp.inbox.to(stranger)).toEqual([]);
    expect(resetMails(ada.email)).toEqual([]);
  });

  test("a reset racing a sign-in with the old password leaves no session that works", async () => {
    for (let round = 0; round < 5; round++) {
      const ada = await customer();
      await askForReset(ada.email);
      const token = await linkTokenFor(ada.email);
      const [login, reset] = await Promise.all([signIn(ada.email, OLD_PASSWORD), confirm(token)]);
      expect(reset.status).toBe(204);
      if (login.status === 200) {
        // Signed in before the reset committed: that token was issued before it, and is refused.
        expect((await http(e2e.url, "GET", "/api/me", { token: login.body.token })).status).toBe(401);
      } else {
        expect(login.status).toBe(401);
      }
      expect((await signIn(ada.email, NEW_PASSWORD)).status).toBe(200);
    }
  });

  test("known and unknown addresses cannot be told apart by status, body or time (50 tries each)", async () => {
    const known = await Promise.all(Array.from({ length: 50 }, () => customer()));
    const unknown = known.map(() => `stranger-${crypto.randomUUID()}@example.com`);
    const timings: Record<"known" | "unknown", number[]> = { known: [], unknown: [] };
    const answers = new Set<string>();
    // Taking turns, so the machine's drift falls on both alike.
    for (let i = 0; i < 50; i++) {
      for (const [kind, email] of [
        ["known", known[i]?.email ?? ""],
        ["unknown", unknown[i] ?? ""],
      ] as const) {
        const started = performance.now();
        const answer = await fetch(`${e2e.url}/api/auth/password-reset`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email }),
        });
        const text = await answer.text();
        timings[kind].push(performance.now() - started);
        answers.add(`${answer.status} ${answer.headers.get("content-type")} ${JSON.stringify(text)}`);
      }
    }
    expect([...answers]).toEqual(['202 null ""']);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const [knownMs, unknownMs] = [median(timings.known), median(timings.unknown)];
    // The same work on both paths (one job enqueued): the medians differ by noise, not by a lookup or a hash.
    expect(Math.abs(knownMs - unknownMs)).toBeLessThan(Math.max(2, 0.5 * Math.min(knownMs, unknownMs)));
    await resetJobsDone();
  }, 60_000);
});
