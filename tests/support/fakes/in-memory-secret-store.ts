import type { AuditTrail } from "../../../application/audit/ports.ts";
import type { SecretStore } from "../../../application/secrets/ports.ts";
import { createInMemoryAuditTrail } from "./in-memory-audit-trail.ts";

/** Secrets in memory; a `put`'s audit entry goes to `trail`. */
export function createInMemorySecretStore(
  initial: Record<string, string> = {},
  trail: AuditTrail = createInMemoryAuditTrail(),
): SecretStore {
  const values = new Map(Object.entries(initial));
  return {
    resolve: async (ref) => values.get(ref),
    put: async (ref, value, audit) => {
      values.set(ref, value);
      if (audit) await trail.record(audit);
    },
    list: async () => [...values.keys()].sort().map((ref) => ({ ref, source: "stored" as const, updated_at: null })),
  };
}
