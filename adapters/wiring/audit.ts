import { makeListAuditLog } from "../../application/audit/list-audit-log.ts";
import { createPostgresAuditLog } from "../postgres/audit-log.ts";
import type { Platform } from "./platform.ts";

/** The audit log's reading side; entries are written by each feature in the transaction of its change. */
export function wireAudit({ sql }: Platform) {
  return {
    routes: {
      listAuditLog: makeListAuditLog({ log: createPostgresAuditLog(sql) }),
    },
  };
}

export type AuditFeature = ReturnType<typeof wireAudit>;
