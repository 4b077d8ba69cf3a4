import { beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let one: ReturnType<typeof createTestMarketplace>;
let two: ReturnType<typeof createTestMarketplace>;
/** A third instance, on a clock the test moves. */
let timed: ReturnType<typeof createTestMarketplace>;
const time = createMovableClock();

beforeAll(() => {
  // Instances on one database behind a trusted proxy that names the client (a request without the
  // header comes from one address), with room in the per-address limit for the per-account one to show.
  const env = { AUTH_RATE_LIMIT_BURST: "1000", AUTH_RATE_LIMIT_PER_SECOND: "1000", TRUST_PROXY: "true" };
  one = createTestMarketplace(db.current.sql, {}, { env });
  two = createTestMarketplace(db.current.sql, {}, { env });
  timed = createTestMarketplace(db.current.sql, {}, { env, clock: time.clock });
  db.onTeardown(async () => {
    await one.close();
    await two.close();
    await timed.close();
  });
});

async function aCustomer() {
  const email = `t-${crypto.randomUUID()}@example.com`;
  const registered = await call(one.app, "POST", "/api/auth/register", {
    body: { email, password: "correct horse", name: "Tess" },
  });
  expect(registered.status).toBe(201);
  return email;
}

const signIn = (app: typeof one.app, email: string, password: string) =>
  call(app, "POST", "/api/auth/login", { body: { email, password } });

const signInFrom = (address: string, email: string, password: string) =>
  call(timed.app, "POST", "/api/auth/login", { body: { email, password }, headers: { "x-forwarded-for": address } });

describe("failed sign-ins per account", () => {
  test("after 5 failures the next attempt is a 429 with Retry-After, even with the right password", async () => {
    const email = await aCustomer();
    for (let i = 0; i < 5; i += 1)
      expectProblemShape(await signIn(one.app, email, "wrong horse"), 401, "INVALID_CREDENTIALS");
    const refused = await signIn(one.app, email, "correct horse");
    expectProblemShape(refused, 429, "SIGN_IN_THROTTLED");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });

  test("the count is shared: a second instance refuses as the first counted", async () => {
    const email = await aCustomer();
    for (let i = 0; i < 5; i += 1) await signIn(i % 2 ? one.app : two.app, email, "wrong horse");
    expectProblemShape(await signIn(two.app, email, "wrong horse"), 429, "SIGN_IN_THROTTLED");
  });

  test("20 concurrent guesses on two instances: only the 5 free ones reach the password check", async () => {
    const email = await aCustomer();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signIn(i % 2 ? one.app : two.app, email, `guess ${i}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  test("30 concurrent guesses from 30 addresses on two instances: only the account's 20 free ones reach the password check", async () => {
    const email = await aCustomer();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(i % 2 ? one.app : two.app, "POST", "/api/auth/login", {
          body: { email, password: `guess ${i}` },
          headers: { "x-forwarded-for": `192.0.2.${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  test("a successful sign-in clears the count; other accounts are not affected", async () => {
    const email = await aCustomer();
    const other = await aCustomer();
    for (let i = 0; i < 4; i += 1) await signIn(one.app, email, "wrong horse");
    expect((await signIn(one.app, email, "correct horse")).status).toBe(200);
    for (let i = 0; i < 5; i += 1)
      expectProblemShape(await signIn(one.app, email, "wrong horse"), 401, "INVALID_CREDENTIALS");
    expect((await signIn(two.app, other, "correct horse")).status).toBe(200);
    const [row] = await db.current.sql`select failures from sign_in_attempts where email = ${other}`;
    expect(row).toBeUndefined();
  });

  test("an unknown email backs off the same way, so the answers tell nothing about who has an account", async () => {
    const ghost = `ghost-${crypto.randomUUID()}@example.com`;
    for (let i = 0; i < 5; i += 1)
      expectProblemShape(await signIn(one.app, ghost, "guess"), 401, "INVALID_CREDENTIALS");
    const refused = await signIn(one.app, ghost, "guess");
    expectProblemShape(refused, 429, "SIGN_IN_THROTTLED");
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  test("one wrong guess each time the wait lapses does not keep the owner out for more than a minute", async () => {
    const email = await aCustomer();
    const attacker = "203.0.113.7";
    let longest = 0;
    // A day of it: the attacker guesses again the moment each wait runs out.
    for (let elapsed = 0; elapsed < time.hours(24); ) {
      const answer = await signInFrom(attacker, email, "wrong horse");
      if (answer.status === 429) {
        const wait = Number(answer.headers.get("retry-after"));
        longest = Math.max(longest, wait);
        time.advance(wait * 1000);
        elapsed += wait * 1000;
      } else expectProblemShape(answer, 401, "INVALID_CREDENTIALS");
    }
    expect(longest).toBe(900);
    // The owner, from their own address, right after one more wrong guess: a minute at most.
    expectProblemShape(await signInFrom(attacker, email, "wrong horse"), 401, "INVALID_CREDENTIALS");
    const held = await signInFrom("198.51.100.20", email, "correct horse");
    expectProblemShape(held, 429, "SIGN_IN_THROTTLED");
    expect(Number(held.headers.get("retry-after"))).toBe(60);
    time.advance(60_000);
    expect((await signInFrom("198.51.100.20", email, "correct horse")).status).toBe(200);
    // The attacker's own wait is untouched by the owner's success.
    const refused = await signInFrom(attacker, email, "wrong horse");
    expectProblemShape(refused, 429, "SIGN_IN_THROTTLED");
    expect(Number(refused.headers.get("retry-after"))).toBe(840);
  });

  test("from one address the wait doubles up to 15 minutes", async () => {
    const email = await aCustomer();
    const waits: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const answer = await signInFrom("203.0.113.8", email, "wrong horse");
      if (answer.status === 429) {
        const wait = Number(answer.headers.get("retry-after"));
        waits.push(wait);
        time.advance(wait * 1000);
      }
    }
    expect(waits.slice(0, 11)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expect(Math.max(...waits)).toBe(900);
  });

  test("guesses from many addresses: after 20 the account as a whole waits, at most a minute", async () => {
    const email = await aCustomer();
    const from = (i: number) => signInFrom(`192.0.2.${i}`, email, "wrong horse");
    for (let i = 0; i < 19; i += 1) expectProblemShape(await from(i), 401, "INVALID_CREDENTIALS");
    expectProblemShape(await from(19), 401, "INVALID_CREDENTIALS");
    const waits: number[] = [];
    for (let i = 20; i < 40; i += 1) {
      const refused = await from(i);
      expectProblemShape(refused, 429, "SIGN_IN_THROTTLED");
      const wait = Number(refused.headers.get("retry-after"));
      waits.push(wait);
      time.advance(wait * 1000);
      expectProblemShape(await from(i), 401, "INVALID_CREDENTIALS");
    }
    expect(waits.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(Math.max(...waits)).toBe(60);
  });
});
