import { beforeAll, describe, expect, test } from "bun:test";
import { encodeCursor } from "../../../adapters/postgres/cursor.ts";
import { byName, newestFirst, newestFirstExact } from "../../../adapters/postgres/keyset-page.ts";
import type { PageRequest } from "../../../application/shared/ports.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

interface Row {
  readonly id: string;
  readonly name: string;
  readonly created_at: Date;
}

/** Rows a, b, c, d, e created a second apart, but c and d within one millisecond (c 400 µs later). */
const ROWS = [
  ["a", "2026-02-01T10:00:00.000000Z"],
  ["b", "2026-02-01T10:00:01.000000Z"],
  ["c", "2026-02-01T10:00:02.000400Z"],
  ["d", "2026-02-01T10:00:02.000000Z"],
  ["e", "2026-02-01T10:00:04.000000Z"],
] as const;
let rows: Row[] = [];

beforeAll(async () => {
  const sql = db.current.sql;
  await sql`create table keyset_rows (id uuid primary key default gen_random_uuid(), name text not null, created_at timestamptz not null)`;
  // As text: a timestamptz parameter would pass through a JavaScript date and lose the microseconds.
  for (const [name, at] of ROWS) {
    await sql`insert into keyset_rows (name, created_at) values (${name}, ${at}::text::timestamptz)`;
  }
  rows = [...(await sql<Row[]>`select id, name, created_at from keyset_rows`)];
});

const idOf = (name: string) => rows.find((row) => row.name === name)?.id ?? "";

async function newestFirstPage(page: PageRequest) {
  const sql = db.current.sql;
  const keyset = newestFirst<Row>(sql, page);
  return keyset.cut(
    await sql<Row[]>`select id, name, created_at from keyset_rows where true ${keyset.after} ${keyset.orderAndLimit}`,
  );
}

async function exactPage(page: PageRequest) {
  const sql = db.current.sql;
  const keyset = newestFirstExact<Row & { page_key: string }>(sql, page);
  return keyset.cut(
    await sql<(Row & { page_key: string })[]>`
      select id, name, created_at, ${keyset.key} from keyset_rows where true ${keyset.after} ${keyset.orderAndLimit}`,
  );
}

async function byNamePage(page: PageRequest) {
  const sql = db.current.sql;
  const keyset = byName<Row>(sql, page);
  return keyset.cut(
    await sql<Row[]>`select id, name, created_at from keyset_rows where true ${keyset.after} ${keyset.orderAndLimit}`,
  );
}

async function everyPage(fetch: (page: PageRequest) => Promise<{ items: readonly Row[]; next_cursor: string | null }>) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch({ limit: 2, ...(cursor ? { cursor } : {}) });
    pages.push(page.items.map((row) => row.name));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

describe("keyset pages", () => {
  test("newest first: every row exactly once; rows of one millisecond go by id and none is skipped", async () => {
    const sameMillisecond = idOf("c") > idOf("d") ? ["c", "d"] : ["d", "c"];
    expect((await everyPage(newestFirstPage)).flat()).toEqual(["e", ...sameMillisecond, "b", "a"]);
    expect(await everyPage(newestFirstPage)).toHaveLength(3);
  });

  test("the cursor is still the sort key of the last row, so cursors clients already hold keep working", async () => {
    const first = await newestFirstPage({ limit: 1 });
    expect(first.next_cursor).toBe(encodeCursor(["2026-02-01T10:00:04.000Z", idOf("e")]));

    const resumed = await newestFirstPage({ limit: 10, cursor: encodeCursor(["2026-02-01T10:00:01.000Z", idOf("b")]) });
    expect(resumed).toEqual({ items: [expect.objectContaining({ name: "a" })], next_cursor: null });
  });

  test("exact newest first: microseconds count, so a page may end between rows of one millisecond", async () => {
    expect((await everyPage(exactPage)).flat()).toEqual(["e", "c", "d", "b", "a"]);
    const [first] = (await exactPage({ limit: 2 })).items.slice(-1);
    expect(first).toMatchObject({ name: "c", page_key: "2026-02-01T10:00:02.000400Z" });
    const pages: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await exactPage({ limit: 1, ...(cursor ? { cursor } : {}) });
      pages.push(...page.items.map((row) => row.name));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual(["e", "c", "d", "b", "a"]);
  });

  test("by name: alphabetical, then by id", async () => {
    expect(await everyPage(byNamePage)).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect((await byNamePage({ limit: 2 })).next_cursor).toBe(encodeCursor(["b", idOf("b")]));
  });

  test("the last page has no next cursor, even when it is exactly full", async () => {
    expect((await newestFirstPage({ limit: 5 })).next_cursor).toBeNull();
    expect((await byNamePage({ limit: 4 })).next_cursor).not.toBeNull();
  });

  test("a cursor this API did not issue is a validation failure at /cursor", async () => {
    for (const cursor of ["garbage", encodeCursor(["only-one-part"]), Buffer.from("[1,").toString("base64url")]) {
      expect(() => newestFirst(db.current.sql, { limit: 2, cursor })).toThrow(
        expect.objectContaining({
          code: "VALIDATION_FAILED",
          errors: [expect.objectContaining({ path: "/cursor", code: "INVALID_CURSOR" })],
        }),
      );
      expect(() => byName(db.current.sql, { limit: 2, cursor })).toThrow("The request is not valid.");
    }
  });

  test("a well-formed cursor with a forged time or id is refused before it reaches a cast in SQL", async () => {
    const forged = [
      ["yesterday", idOf("a")],
      ["1", idOf("a")],
      ["2026-02-30T10:00:00.000Z", idOf("a")],
      ["2026-02-01T10:00:00.000Z", "x"],
      ["2026-02-01T10:00:00.000Z'; drop table keyset_rows; --", idOf("a")],
      [1, 2],
    ];
    for (const key of forged) {
      expect(() => newestFirst(db.current.sql, { limit: 2, cursor: encodeCursor(key) })).toThrow(
        expect.objectContaining({ errors: [expect.objectContaining({ path: "/cursor", code: "INVALID_CURSOR" })] }),
      );
    }
    const issued = (await newestFirstPage({ limit: 2 })).next_cursor ?? "";
    expect((await newestFirstPage({ limit: 2, cursor: issued })).items).toHaveLength(2);
  });
});
