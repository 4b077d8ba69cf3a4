import { describe, expect, test } from "bun:test";
import { openDatabase } from "../../../adapters/postgres/database.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

/** Collects what escapes as an uncaught exception while `body` runs (it would end the process). */
async function withUncaught(body: (uncaught: unknown[]) => Promise<void>) {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on("uncaughtException", onUncaught);
  try {
    await body(uncaught);
  } finally {
    process.off("uncaughtException", onUncaught);
  }
}

const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code;

describe("a database connection lost in the middle of a transaction", () => {
  test("the transaction's next query is rejected as CONNECTION_CLOSED, nothing escapes, and the pool serves again", async () => {
    const { sql, close } = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 2 });
    try {
      await withUncaught(async (uncaught) => {
        // The transaction settles as soon as its connection closes; its callback goes on regardless.
        const lateQuery = Promise.withResolvers<unknown>();
        const failure = await sql
          .begin(async (tx) => {
            const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
            await db.current.sql`select pg_terminate_backend(${row?.pid ?? 0})`;
            await Bun.sleep(200);
            // Small and parameterless: the driver buffers it and flushes it on the next tick.
            await tx`select 1`.then(lateQuery.resolve, lateQuery.resolve);
          })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(codeOf(failure)).toBe("CONNECTION_CLOSED");
        expect(codeOf(await lateQuery.promise)).toBe("CONNECTION_CLOSED");
        await Bun.sleep(100);
        expect(uncaught).toEqual([]);
      });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => sql<{ n: number }[]>`select ${i}::int as n`),
      );
      expect(answers.map(([row]) => row?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      await close(1);
    }
  });

  test("a reserved session's next query is rejected the same way", async () => {
    const { sql, close } = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 2 });
    try {
      await withUncaught(async (uncaught) => {
        const reserved = await sql.reserve();
        const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
        await db.current.sql`select pg_terminate_backend(${row?.pid ?? 0})`;
        await Bun.sleep(200);
        const failure = await reserved`select 1`.then(
          () => undefined,
          (error: unknown) => error,
        );
        await Bun.sleep(100);
        expect(codeOf(failure)).toBe("CONNECTION_CLOSED");
        expect(uncaught).toEqual([]);
      });
    } finally {
      await close(1);
    }
  });
});
