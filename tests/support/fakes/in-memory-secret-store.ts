import type { AuditLogWriter } from "../../../application/audit/ports.ts";
import type { SecretStore } from "../../../application/secrets/ports.ts";
import { SecretPurposeMismatch } from "../../../domain/secrets/errors.ts";
import {
  canonicalSecretRef,
  fixedPurposeOf,
  purposeMismatchMessage,
  type SecretPurpose,
  samePurpose,
} from "../../../domain/secrets/secret-purpose.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";

/**
 * Secrets in memory with the store's purpose rules (fixed by name, declared, or taken by the
 * first use), each reference known by its one name; a `put`'s audit entry goes to `trail`.
 * `declared` gives references their purposes.
 */
export function createInMemorySecretStore(
  initial: Record<string, string> = {},
  trail: AuditLogWriter = createInMemoryAuditLogWriter(),
  declared: Record<string, SecretPurpose> = {},
): SecretStore {
  const named = <T>(entries: Record<string, T>) =>
    new Map(Object.entries(entries).map(([ref, value]) => [canonicalSecretRef(ref), value] as const));
  const values = named(initial);
  const purposes = named(declared);
  const purposeFor = (ref: string, wanted: SecretPurpose) => {
    const known = fixedPurposeOf(ref) ?? purposes.get(ref);
    if (known) return known;
    purposes.set(ref, wanted);
    return wanted;
  };
  const store: SecretStore = {
    resolve: async (spelled, purpose) => {
      const ref = canonicalSecretRef(spelled);
      await store.claim([{ path: "/", ref, purpose }]);
      return values.get(ref);
    },
    claim: async (uses) => {
      const mismatches = uses.flatMap((use) => {
        const ref = canonicalSecretRef(use.ref);
        const found = purposeFor(ref, use.purpose);
        return samePurpose(found, use.purpose)
          ? []
          : [{ path: use.path, message: purposeMismatchMessage(ref, found, use.purpose) }];
      });
      if (mismatches.length > 0) throw new SecretPurposeMismatch(mismatches);
    },
    has: async (ref) => values.has(canonicalSecretRef(ref)),
    put: async (spelled, value, purpose, audit) => {
      const ref = canonicalSecretRef(spelled);
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
