import { beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let one: ReturnType<typeof createTestMarketplace>;
let two: ReturnType<typeof createTestMarketplace>;

beforeAll(() => {
  // Two instances on one database, with room in the per-address limit for the per-account one to show.
  const env = { AUTH_RATE_LIMIT_BURST: "1000", AUTH_RATE_LIMIT_PER_SECOND: "1000" };
  one = createTestMarketplace(db.current.sql, {}, { env });
  two = createTestMarketplace(db.current.sql, {}, { env });
  db.onTeardown(async () => {
    await one.close();
    await two.close();
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
});
