import { type AuditLogWriter, redactSummary } from "../../application/audit/ports.ts";
import type { Queryable } from "./database.ts";

/**
 * Writes audit entries in the caller's transaction: they exist exactly when the change does. The
 * summary is redacted once more here, so no secret value reaches the table whatever a caller passed.
 */
export function createPostgresAuditLogWriter(sql: Queryable): AuditLogWriter {
  return {
    async record(entry) {
      await sql`
        insert into audit_log (actor_id, action, target_type, target_id, summary)
        values (${entry.actor_id}, ${entry.action}, ${entry.target_type}, ${entry.target_id},
                ${sql.json(redactSummary(entry.summary ?? {}) as never)})`;
    },
  };
}
