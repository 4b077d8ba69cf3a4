import type { AuditEntry, AuditLogWriter } from "../../../application/audit/ports.ts";

/** Audit entries in memory, in the order written; rolled back with the unit of work. */
export function createInMemoryAuditLogWriter() {
  let entries: AuditEntry[] = [];
  const trail: AuditLogWriter = {
    async record(entry) {
      entries.push(entry);
    },
  };
  return {
    ...trail,
    all: () => [...entries],
    snapshot() {
      const saved = [...entries];
      return () => {
        entries = saved;
      };
    },
  };
}

export type InMemoryAuditLogWriter = ReturnType<typeof createInMemoryAuditLogWriter>;
