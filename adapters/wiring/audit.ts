import { makeListAuditLog } from "../../application/audit/list-audit-log.ts";
import { createPostgresAuditLogReader } from "../postgres/audit-log-reader.ts";
import type { Platform } from "./platform.ts";

/** The audit log's reading side; entries are written by each feature in the transaction of its change. */
export function wireAudit({ sql }: Platform) {
  return {
    useCases: {
      listAuditLog: makeListAuditLog({ log: createPostgresAuditLogReader(sql) }),
    },
  };
}

export type AuditFeature = ReturnType<typeof wireAudit>;
