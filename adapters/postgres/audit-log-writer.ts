import { type AuditLogWriter, redactSummary } from "../../application/audit/ports.ts";
import type { Queryable } from "./database.ts";

/**
 * Writes audit entries in the caller's transaction: they exist exactly when the change does. The
 * summary is redacted once more here, so no secret value reaches the table whatever a caller passed.
 * An actor that is an API key (a request authenticated by one acts as its id) is recorded as one,
 * with the key's name as it was then: use cases pass the actor's id alone, whoever it is.
 */
export function createPostgresAuditLogWriter(sql: Queryable): AuditLogWriter {
  return {
    async record(entry) {
      await sql`
        insert into audit_log (actor_id, actor_kind, actor_name, action, target_type, target_id, summary)
        select ${entry.actor_id}::uuid, case when k.id is null then 'user' else 'api_key' end, k.name,
               ${entry.action}, ${entry.target_type}, ${entry.target_id},
               ${sql.json(redactSummary(entry.summary ?? {}) as never)}
        from (select 1) one left join api_keys k on k.id = ${entry.actor_id}::uuid`;
    },
  };
}
