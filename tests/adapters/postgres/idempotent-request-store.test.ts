import { describe, expect, test } from "bun:test";
import { createPostgresIdempotentRequestStore } from "../../../adapters/postgres/idempotent-request-store.ts";
import { createSecretCipher } from "../../../adapters/secrets/secret-cipher.ts";
import { TEST_SECRETS_KEY } from "../../support/credentials.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const store = () => createPostgresIdempotentRequestStore(db.current.sql, createSecretCipher(TEST_SECRETS_KEY));
const aScope = () => ({
  caller: `user:${crypto.randomUUID()}`,
  route: "POST /api/admin/products",
  key: crypto.randomUUID(),
});
/** Bytes no text round trip keeps: invalid UTF-8 and a NUL. */
const BYTES = new Uint8Array([0x7b, 0x00, 0xff, 0xfe, 0x7d]);

describe("idempotent requests in Postgres", () => {
  test("a completed key replays its exact bytes, sealed at rest; another request under it is a mismatch", async () => {
    const scope = aScope();
    expect(await store().begin(scope, "hash-a")).toEqual({ state: "new" });
    expect(await store().begin(scope, "hash-a")).toEqual({ state: "in_progress" });
    await store().complete(scope, { status: 201, contentType: "application/json", body: BYTES });
    expect(await store().begin(scope, "hash-a")).toEqual({
      state: "completed",
      answer: { status: 201, contentType: "application/json", body: BYTES },
    });
    expect(await store().begin(scope, "hash-b")).toEqual({ state: "mismatch" });
    const [row] = await db.current.sql<{ sealed_body: Uint8Array }[]>`
      select sealed_body from idempotent_requests where key = ${scope.key}`;
    expect(Buffer.from(row?.sealed_body ?? []).includes(Buffer.from(BYTES))).toBeFalse();
  });

  test("the same key of another caller or route is another request", async () => {
    const scope = aScope();
    await store().begin(scope, "hash-a");
    expect(await store().begin({ ...scope, caller: "anonymous" }, "hash-b")).toEqual({ state: "new" });
    expect(await store().begin({ ...scope, route: "PUT /api/admin/products/:id" }, "hash-b")).toEqual({ state: "new" });
  });

  test("an abandoned key is free again; a completed one is not abandoned", async () => {
    const scope = aScope();
    await store().begin(scope, "hash-a");
    await store().abandon(scope);
    expect(await store().begin(scope, "hash-b")).toEqual({ state: "new" });
    await store().complete(scope, { status: 200, contentType: null, body: new Uint8Array() });
    await store().abandon(scope);
    expect((await store().begin(scope, "hash-b")).state).toBe("completed");
  });

  test("a claim five minutes old is taken over by the same request; a key past 24 hours is new again", async () => {
    const stale = aScope();
    await store().begin(stale, "hash-a");
    await db.current.sql`
      update idempotent_requests set created_at = now() - interval '6 minutes' where key = ${stale.key}`;
    expect(await store().begin(stale, "hash-b")).toEqual({ state: "mismatch" });
    expect(await store().begin(stale, "hash-a")).toEqual({ state: "new" });

    const expired = aScope();
    await store().begin(expired, "hash-a");
    await store().complete(expired, { status: 201, contentType: "application/json", body: BYTES });
    await db.current.sql`
      update idempotent_requests set created_at = now() - interval '25 hours' where key = ${expired.key}`;
    expect(await store().begin(expired, "hash-b")).toEqual({ state: "new" });
  });
});
