import type { AuditEntry, AuditTrail } from "../../../application/audit/ports.ts";

/** Audit entries in memory, in the order written; rolled back with the unit of work. */
export function createInMemoryAuditTrail() {
  let entries: AuditEntry[] = [];
  const trail: AuditTrail = {
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

export type InMemoryAuditTrail = ReturnType<typeof createInMemoryAuditTrail>;
