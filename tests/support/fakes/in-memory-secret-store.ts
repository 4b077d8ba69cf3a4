import type { AuditTrail } from "../../../application/audit/ports.ts";
import type { SecretStore } from "../../../application/secrets/ports.ts";
import {
  fixedPurposeOf,
  purposeMismatchMessage,
  type SecretPurpose,
  SecretPurposeMismatch,
  samePurpose,
} from "../../../domain/secrets/secret-purpose.ts";
import { createInMemoryAuditTrail } from "./in-memory-audit-trail.ts";

/**
 * Secrets in memory with the store's purpose rules (fixed by name, declared, or taken by the
 * first use); a `put`'s audit entry goes to `trail`. `declared` gives references their purposes.
 */
export function createInMemorySecretStore(
  initial: Record<string, string> = {},
  trail: AuditTrail = createInMemoryAuditTrail(),
  declared: Record<string, SecretPurpose> = {},
): SecretStore {
  const values = new Map(Object.entries(initial));
  const purposes = new Map(Object.entries(declared));
  const purposeFor = (ref: string, wanted: SecretPurpose) => {
    const known = fixedPurposeOf(ref) ?? purposes.get(ref);
    if (known) return known;
    purposes.set(ref, wanted);
    return wanted;
  };
  const store: SecretStore = {
    resolve: async (ref, purpose) => {
      await store.claim([{ path: "/", ref, purpose }]);
      return values.get(ref);
    },
    claim: async (uses) => {
      const mismatches = uses.flatMap((use) => {
        const found = purposeFor(use.ref, use.purpose);
        return samePurpose(found, use.purpose)
          ? []
          : [{ path: use.path, message: purposeMismatchMessage(use.ref, found, use.purpose) }];
      });
      if (mismatches.length > 0) throw new SecretPurposeMismatch(mismatches);
    },
    has: async (ref) => values.has(ref),
    put: async (ref, value, purpose, audit) => {
      const fixed = fixedPurposeOf(ref);
      if (fixed && purpose && !samePurpose(fixed, purpose)) {
        throw new SecretPurposeMismatch([{ path: "/purpose", message: purposeMismatchMessage(ref, fixed, purpose) }]);
      }
      values.set(ref, value);
      if (purpose && !fixed) purposes.set(ref, purpose);
      if (audit) await trail.record(audit);
    },
    list: async () =>
      [...values.keys()].sort().map((ref) => ({
        ref,
        source: "stored" as const,
        updated_at: null,
        purpose: fixedPurposeOf(ref) ?? purposes.get(ref),
      })),
  };
  return store;
}
