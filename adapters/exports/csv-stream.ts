import type { Page } from "../../application/shared/ports.ts";
import { type CsvValue, csvRecord } from "./csv.ts";

/** A column of an export: its header and how a row fills it. */
export interface CsvColumn<T> {
  readonly header: string;
  value(row: T): CsvValue;
}

/** Rows by keyset pages: the first page without a cursor, each next one after the previous page's. */
export type PageReader<T> = (cursor: string | undefined) => Promise<Page<T>>;

/** Rows a page holds: a page's text is one chunk of the answer, about 300 kB for orders. */
export const EXPORT_PAGE_ROWS = 1000;

/**
 * A CSV file as a byte stream, one page of rows in memory at a time: the next page is read only
 * when the client has taken the previous one (no high-water mark), so a slow client slows the
 * reads instead of filling memory. Measured (bench/exports.ts, warm process): 100,000 orders, a
 * 28.7 MB file, grew the server's resident memory by 21-39 MB to a 134-143 MB peak; 300,000 (86 MB)
 * by 47 MB to 135 MB: flat, the heap's slack between collections (docs/performance.md, "CSV exports").
 *
 * The first page is read before the stream exists, so a failure there (the database down, a bad
 * cursor) is thrown to the caller while it can still answer a problem. A failure on a later page
 * errors the stream: the server aborts the answer (no terminating chunk), so a client sees a broken
 * transfer, never a shorter file that looks complete. `onFailure` is told first, to log it.
 */
export async function csvStream<T>(
  columns: readonly CsvColumn<T>[],
  read: PageReader<T>,
  onFailure: (error: unknown, rowsWritten: number) => void,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const lines = (rows: readonly T[]) => rows.map((row) => csvRecord(columns.map((column) => column.value(row))));
  const first = await read(undefined);
  let text = csvRecord(columns.map((column) => column.header)) + lines(first.items).join("");
  let next = first.next_cursor;
  let written = first.items.length;
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (text !== "") {
          controller.enqueue(encoder.encode(text));
          text = "";
          return;
        }
        if (next === null) {
          finished = true;
          controller.close();
          return;
        }
        try {
          const page = await read(next);
          if (finished) return;
          next = page.next_cursor;
          written += page.items.length;
          controller.enqueue(encoder.encode(lines(page.items).join("")));
        } catch (error) {
          onFailure(error, written);
          // Without a reason, as a broken download does: the server would print an Error's stack,
          // and `onFailure` has logged it already.
          controller.error(undefined);
        }
      },
      // The client went away: no further page is read.
      cancel() {
        finished = true;
      },
    },
    { highWaterMark: 0 },
  );
}
