import { describe, expect, test } from "bun:test";
import { createPostgresPasswordResets } from "../../../adapters/postgres/password-resets.ts";
import { createPostgresUserRepository } from "../../../adapters/postgres/user-repository.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const resets = () => createPostgresPasswordResets(db.current.sql);
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.parse("2026-11-28T12:00:00Z") + offsetMs);

async function anAccount() {
  const user = await createPostgresUserRepository(db.current.sql).insert({
    email: `reset-${crypto.randomUUID()}@example.com`,
    name: "Pat",
    role: "customer",
    passwordHash: "old-hash",
  });
  if (!user) throw new Error("seed failed");
  return user;
}

const issue = (userId: string, tokenHash: string, createdAt = at(0)) =>
  resets().issue({ userId, tokenHash, createdAt, expiresAt: new Date(createdAt.getTime() + HOUR) });

const account = async (id: string) =>
  (
    await db.current.sql<{ password_hash: string; token_version: number }[]>`
    select password_hash, token_version from users where id = ${id}`
  )[0];

describe("password reset links in Postgres", () => {
  test("a link sets the password and raises the token version once, and spends the account's other links", async () => {
    const pat = await anAccount();
    await issue(pat.id, "hash-a");
    await issue(pat.id, "hash-b");
    expect(await resets().redeem("hash-a", "new-hash", at(60_000))).toEqual({ userId: pat.id, email: pat.email });
    expect(await account(pat.id)).toEqual({ password_hash: "new-hash", token_version: 1 });
    expect(await resets().redeem("hash-a", "other-hash", at(60_000))).toBeUndefined();
    expect(await resets().redeem("hash-b", "other-hash", at(60_000))).toBeUndefined();
    expect(await account(pat.id)).toEqual({ password_hash: "new-hash", token_version: 1 });
  });

  test("a link expires at its time, and an unknown hash spends nothing", async () => {
    const pat = await anAccount();
    await issue(pat.id, "hash-late");
    expect(await resets().redeem("hash-late", "new-hash", at(HOUR))).toBeUndefined();
    expect(await resets().redeem("no-such-hash", "new-hash", at(0))).toBeUndefined();
    expect(await account(pat.id)).toEqual({ password_hash: "old-hash", token_version: 0 });
  });

  test("of eight confirmations racing for one link, exactly one sets its password", async () => {
    const pat = await anAccount();
    await issue(pat.id, "hash-race");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => resets().redeem("hash-race", `hash-${i}`, at(1_000))),
    );
    const winners = results.flatMap((result, i) => (result ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(await account(pat.id)).toEqual({ password_hash: `hash-${winners[0]}`, token_version: 1 });
  });

  test("counts the links an account was sent since a time", async () => {
    const pat = await anAccount();
    await issue(pat.id, "hash-1", at(0));
    await issue(pat.id, "hash-2", at(10 * 60_000));
    expect(await resets().issuedSince(pat.id, at(0))).toBe(2);
    expect(await resets().issuedSince(pat.id, at(5 * 60_000))).toBe(1);
    expect(await resets().issuedSince((await anAccount()).id, at(0))).toBe(0);
  });

  test("an account's links go with the account", async () => {
    const pat = await anAccount();
    await issue(pat.id, "hash-gone");
    await db.current.sql`delete from users where id = ${pat.id}`;
    expect(await resets().redeem("hash-gone", "new-hash", at(0))).toBeUndefined();
  });
});
