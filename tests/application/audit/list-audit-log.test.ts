import { describe, expect, test } from "bun:test";
import { makeListAuditLog } from "../../../application/audit/list-audit-log.ts";
import type { AuditFilter, AuditLogReader } from "../../../application/audit/ports.ts";
import type { PageRequest } from "../../../application/shared/ports.ts";

function recordingReader() {
  const asked: { filter: AuditFilter; page: PageRequest }[] = [];
  const reader: AuditLogReader = {
    async list(filter, page) {
      asked.push({ filter, page });
      return { items: [], next_cursor: null };
    },
  };
  return { reader, asked };
}

describe("listAuditLog", () => {
  test("passes the filter and cursor on, and keeps the page between 1 and 100 entries", async () => {
    const { reader, asked } = recordingReader();
    const list = makeListAuditLog({ log: reader });
    await list({ action: "order.refund" }, { limit: 20, cursor: "c" });
    await list({}, { limit: 1000 });
    await list({}, { limit: 0 });
    expect(asked).toEqual([
      { filter: { action: "order.refund" }, page: { limit: 20, cursor: "c" } },
      { filter: {}, page: { limit: 100 } },
      { filter: {}, page: { limit: 1 } },
    ]);
  });
});
