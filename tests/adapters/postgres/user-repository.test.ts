import { describe, expect, test } from "bun:test";
import { createPostgresUserRepository } from "../../../adapters/postgres/user-repository.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const repo = () => createPostgresUserRepository(db.current.sql);
const newUser = (email: string) => ({ email, name: "Pat", role: "customer" as const, passwordHash: "hash-1" });

describe("PostgresUserRepository", () => {
  test("insert then find by id and by email in any case", async () => {
    const user = await repo().insert(newUser("pat@example.com"));
    expect(user).toMatchObject({ email: "pat@example.com", role: "customer" });
    expect(await repo().findById(user?.id ?? "")).toEqual(user);
    expect(await repo().findByEmail("PAT@example.com")).toMatchObject({ id: user?.id, passwordHash: "hash-1" });
  });

  test("insert of a taken email returns undefined instead of throwing", async () => {
    await repo().insert(newUser("taken@example.com"));
    expect(await repo().insert(newUser("Taken@Example.com"))).toBeUndefined();
  });

  test("concurrent inserts of one email store exactly one user", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => repo().insert(newUser("race@example.com"))));
    expect(results.filter(Boolean)).toHaveLength(1);
    const [row] = await db.current.sql`select count(*)::int as n from users where lower(email) = 'race@example.com'`;
    expect(row?.n).toBe(1);
  });

  test("upsert updates role and hash of an existing account", async () => {
    const created = await repo().insert(newUser("promote@example.com"));
    const updated = await repo().upsert({ ...newUser("promote@example.com"), role: "admin", passwordHash: "hash-2" });
    expect(updated).toMatchObject({ id: created?.id, role: "admin" });
    expect((await repo().findByEmail("promote@example.com"))?.passwordHash).toBe("hash-2");
  });

  test("a malformed id finds nothing rather than failing", async () => {
    expect(await repo().findById("not-a-uuid")).toBeUndefined();
    expect(await repo().changeAccess("not-a-uuid", { disabled: true })).toBeUndefined();
    expect(await repo().revokeTokens("not-a-uuid")).toBe(false);
  });

  test("a new account is enabled at token version 0", async () => {
    expect(await repo().insert(newUser("fresh@example.com"))).toMatchObject({ disabled: false, tokenVersion: 0 });
  });

  test("changeAccess sets only what it is given; disabling raises the version once", async () => {
    const user = await repo().insert(newUser("access@example.com"));
    const id = user?.id ?? "";
    expect(await repo().changeAccess(id, { role: "admin" })).toMatchObject({ role: "admin", disabled: false });
    expect(await repo().changeAccess(id, { disabled: true })).toMatchObject({ role: "admin", tokenVersion: 1 });
    expect(await repo().changeAccess(id, { disabled: true, role: "customer" })).toMatchObject({
      role: "customer",
      disabled: true,
      tokenVersion: 1,
    });
    expect(await repo().changeAccess(id, { disabled: false })).toMatchObject({ disabled: false, tokenVersion: 1 });
    expect(await repo().changeAccess(crypto.randomUUID(), { disabled: true })).toBeUndefined();
  });

  test("changeAccess writes its audit entry in its transaction: an entry that cannot be written undoes it", async () => {
    const user = await repo().insert(newUser("audited@example.com"));
    const id = user?.id ?? "";
    const entry = (actor: string) => ({
      actor_id: actor,
      action: "user.update",
      target_type: "user",
      target_id: id,
      summary: { role: "admin" },
    });
    const actor = crypto.randomUUID();
    await repo().changeAccess(id, { role: "admin" }, entry(actor));
    await expect(repo().changeAccess(id, { disabled: true }, entry("not-a-uuid"))).rejects.toThrow();

    expect(await repo().findById(id)).toMatchObject({ role: "admin", disabled: false, tokenVersion: 0 });
    const written = await db.current.sql`select actor_id, action, target_id from audit_log where target_id = ${id}`;
    expect([...written]).toEqual([{ actor_id: actor, action: "user.update", target_id: id }]);
  });

  test("revokeTokens raises the version; upsert enables the account again", async () => {
    const user = await repo().insert(newUser("revoke@example.com"));
    expect(await repo().revokeTokens(user?.id ?? "")).toBe(true);
    await repo().changeAccess(user?.id ?? "", { disabled: true });
    expect(await repo().findById(user?.id ?? "")).toMatchObject({ disabled: true, tokenVersion: 2 });
    expect(await repo().upsert({ ...newUser("revoke@example.com"), role: "admin" })).toMatchObject({
      role: "admin",
      disabled: false,
      tokenVersion: 2,
    });
    expect(await repo().revokeTokens(crypto.randomUUID())).toBe(false);
  });

  test("list pages newest first through every account exactly once", async () => {
    for (let i = 0; i < 5; i += 1) {
      const user = await repo().insert(newUser(`page-${i}@example.com`));
      // A second apart, so "newest first" does not hang on the wall clock between statements.
      await db.current
        .sql`update users set created_at = now() + ${i} * interval '1 second' where id = ${user?.id ?? ""}`;
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await repo().list({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((user) => user.email));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const [row] = await db.current.sql`select count(*)::int as n from users`;
    expect(seen).toHaveLength(row?.n);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.indexOf("page-4@example.com")).toBeLessThan(seen.indexOf("page-0@example.com"));
  });
});
