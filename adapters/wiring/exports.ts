import { createPostgresExportReaders } from "../postgres/export-readers.ts";
import type { Platform } from "./platform.ts";

/** The pages the CSV exports read; licenses are read through the license list's own use case. */
export function wireExports({ sql }: Platform) {
  const readers = createPostgresExportReaders(sql);
  return { useCases: { exportOrders: readers.orders, exportPayments: readers.payments } };
}
