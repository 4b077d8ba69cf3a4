import type { SecretListing, SecretStore } from "../../application/secrets/ports.ts";
import type { ChangeSignal } from "../../application/shared/ports.ts";
import { createPostgresAuditTrail } from "../postgres/audit-trail.ts";
import type { Sql } from "../postgres/database.ts";
import { createSecretCipher } from "./secret-cipher.ts";

export const SECRETS_TOPIC = "secrets";

/** `SECRET_<REF>`: the reference upper-cased, every other character than A-Z and 0-9 as `_`. */
export function environmentName(ref: string): string {
  return `SECRET_${ref.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/**
 * Stored (encrypted) secrets first, so an admin can rotate one at run time; then the environment.
 * Opened values are cached in memory until any instance writes a secret.
 */
export function createSecretStore(deps: {
  sql: Sql;
  keyMaterial: string;
  env: Readonly<Record<string, string | undefined>>;
  changes: ChangeSignal;
}): SecretStore {
  const cipher = createSecretCipher(deps.keyMaterial);
  const cache = new Map<string, string | undefined>();
  deps.changes.subscribe(SECRETS_TOPIC, () => cache.clear());

  async function load(ref: string): Promise<string | undefined> {
    const [row] = await deps.sql<{ iv: Uint8Array; ciphertext: Uint8Array }[]>`
      select iv, ciphertext from secrets where ref = ${ref}`;
    if (row) return cipher.open(ref, row);
    return deps.env[environmentName(ref)] || undefined;
  }

  return {
    async resolve(ref) {
      if (cache.has(ref)) return cache.get(ref);
      const value = await load(ref);
      cache.set(ref, value);
      return value;
    },

    async put(ref, value, audit) {
      const sealed = await cipher.seal(ref, value);
      await deps.sql.begin(async (tx) => {
        await tx`
          insert into secrets (ref, iv, ciphertext) values (${ref}, ${sealed.iv}, ${sealed.ciphertext})
          on conflict (ref) do update set iv = excluded.iv, ciphertext = excluded.ciphertext, updated_at = now()`;
        if (audit) await createPostgresAuditTrail(tx).record(audit);
      });
      await deps.changes.publish(SECRETS_TOPIC);
    },

    async list(): Promise<SecretListing[]> {
      const rows = await deps.sql<
        { ref: string; updated_at: Date }[]
      >`select ref, updated_at from secrets order by ref`;
      const stored = rows.map((r) => ({
        ref: r.ref,
        source: "stored" as const,
        updated_at: r.updated_at.toISOString(),
      }));
      const known = new Set(stored.map((s) => environmentName(s.ref)));
      const fromEnv = Object.keys(deps.env)
        .filter((name) => name.startsWith("SECRET_") && name.length > 7 && deps.env[name] && !known.has(name))
        .map((name) => ({ ref: name.slice(7).toLowerCase(), source: "environment" as const, updated_at: null }));
      return [...stored, ...fromEnv].sort((a, b) => a.ref.localeCompare(b.ref));
    },
  };
}
