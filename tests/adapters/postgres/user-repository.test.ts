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
  });
});
