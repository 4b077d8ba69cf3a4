import type { SecretListing, SecretStore } from "../../application/secrets/ports.ts";
import type { ChangeSignal } from "../../application/shared/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import { SecretPurposeMismatch } from "../../domain/secrets/errors.ts";
import {
  canonicalSecretRef,
  fixedPurposeOf,
  purposeMismatchMessage,
  type SecretPurpose,
  type SecretPurposeKind,
  samePurpose,
} from "../../domain/secrets/secret-purpose.ts";
import { createPostgresAuditLogWriter } from "../postgres/audit-log-writer.ts";
import type { Sql } from "../postgres/database.ts";
import { createSecretCipher } from "./secret-cipher.ts";

export const SECRETS_TOPIC = "secrets";

/** `SECRET_<REF>`: the reference upper-cased, every other character than A-Z and 0-9 as `_`. */
export function environmentName(ref: string): string {
  return `SECRET_${ref.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

interface PurposeRow {
  readonly kind: SecretPurposeKind;
  readonly gateway: PaymentGatewayName | null;
  readonly environment: GatewayEnvironment | null;
}

const purposeOfRow = (row: PurposeRow): SecretPurpose =>
  row.gateway !== null && row.environment !== null
    ? ({ kind: row.kind, gateway: row.gateway, environment: row.environment } as SecretPurpose)
    : ({ kind: row.kind } as SecretPurpose);

const rowOf = (purpose: SecretPurpose) => ({
  kind: purpose.kind,
  gateway: "gateway" in purpose ? purpose.gateway : null,
  environment: "gateway" in purpose ? purpose.environment : null,
});

/**
 * Every reference is known by its one name (`canonicalSecretRef`): the value, the purpose, the
 * caches and the listing, so no spelling of a name reaches a secret under another purpose.
 * Stored (encrypted) secrets first, so an admin can rotate one at run time; then the environment.
 * Opened values and known purposes are cached in memory until any instance writes a secret.
 */
export function createSecretStore(deps: {
  sql: Sql;
  keyMaterial: string;
  env: Readonly<Record<string, string | undefined>>;
  changes: ChangeSignal;
}): SecretStore {
  const cipher = createSecretCipher(deps.keyMaterial);
  const values = new Map<string, string | undefined>();
  const purposes = new Map<string, SecretPurpose>();
  deps.changes.subscribe(SECRETS_TOPIC, () => {
    values.clear();
    purposes.clear();
  });

  async function load(ref: string): Promise<string | undefined> {
    const [row] = await deps.sql<{ sealed_ref: string | null; iv: Uint8Array; ciphertext: Uint8Array }[]>`
      select sealed_ref, iv, ciphertext from secrets where ref = ${ref}`;
    // A value stored under another spelling before names were one stays sealed under that spelling.
    if (row) return cipher.open(row.sealed_ref ?? ref, row);
    return deps.env[environmentName(ref)] || undefined;
  }

  async function recorded(ref: string): Promise<SecretPurpose | undefined> {
    const [row] = await deps.sql<
      PurposeRow[]
    >`select kind, gateway, environment from secret_purposes where ref = ${ref}`;
    return row ? purposeOfRow(row) : undefined;
  }

  /** The purpose `ref` has, taking `wanted` when it has none (the first use decides, once). */
  async function purposeFor(ref: string, wanted: SecretPurpose): Promise<SecretPurpose> {
    const known = fixedPurposeOf(ref) ?? purposes.get(ref) ?? (await recorded(ref));
    if (known) {
      purposes.set(ref, known);
      return known;
    }
    const row = rowOf(wanted);
    await deps.sql`
      insert into secret_purposes (ref, kind, gateway, environment)
      values (${ref}, ${row.kind}, ${row.gateway}, ${row.environment}) on conflict (ref) do nothing`;
    // Another instance may have claimed it first: what is stored decides.
    const claimed = (await recorded(ref)) ?? wanted;
    purposes.set(ref, claimed);
    return claimed;
  }

  const store: SecretStore = {
    async resolve(spelled, purpose) {
      const ref = canonicalSecretRef(spelled);
      await store.claim([{ path: "/", ref, purpose }]);
      if (values.has(ref)) return values.get(ref);
      const value = await load(ref);
      values.set(ref, value);
      return value;
    },

    async claim(uses) {
      const mismatches: { path: string; message: string }[] = [];
      for (const use of uses) {
        const ref = canonicalSecretRef(use.ref);
        const declared = await purposeFor(ref, use.purpose);
        if (!samePurpose(declared, use.purpose)) {
          mismatches.push({ path: use.path, message: purposeMismatchMessage(ref, declared, use.purpose) });
        }
      }
      if (mismatches.length > 0) throw new SecretPurposeMismatch(mismatches);
    },

    async has(spelled) {
      const ref = canonicalSecretRef(spelled);
      const [row] = await deps.sql<{ ref: string }[]>`select ref from secrets where ref = ${ref}`;
      return row !== undefined || Boolean(deps.env[environmentName(ref)]);
    },

    async put(spelled, value, purpose, audit) {
      const ref = canonicalSecretRef(spelled);
      const fixed = fixedPurposeOf(ref);
      if (fixed && purpose && !samePurpose(fixed, purpose)) {
        throw new SecretPurposeMismatch([{ path: "/purpose", message: purposeMismatchMessage(ref, fixed, purpose) }]);
      }
      const sealed = await cipher.seal(ref, value);
      await deps.sql.begin(async (tx) => {
        await tx`
          insert into secrets (ref, iv, ciphertext) values (${ref}, ${sealed.iv}, ${sealed.ciphertext})
          on conflict (ref) do update set iv = excluded.iv, ciphertext = excluded.ciphertext, sealed_ref = null,
            updated_at = now()`;
        if (purpose && !fixed) {
          const row = rowOf(purpose);
          await tx`
            insert into secret_purposes (ref, kind, gateway, environment)
            values (${ref}, ${row.kind}, ${row.gateway}, ${row.environment})
            on conflict (ref) do update set kind = excluded.kind, gateway = excluded.gateway,
              environment = excluded.environment, declared_at = now()`;
        }
        if (audit) await createPostgresAuditLogWriter(tx).record(audit);
      });
      await deps.changes.publish(SECRETS_TOPIC);
    },

    async list(): Promise<SecretListing[]> {
      const rows = await deps.sql<
        { ref: string; updated_at: Date }[]
      >`select ref, updated_at from secrets order by ref`;
      const declared = await deps.sql<(PurposeRow & { ref: string })[]>`
        select ref, kind, gateway, environment from secret_purposes`;
      const purposeOf = (ref: string) => {
        const row = declared.find((d) => d.ref === ref);
        return fixedPurposeOf(ref) ?? (row ? purposeOfRow(row) : undefined);
      };
      const stored = rows.map((r) => ({
        ref: r.ref,
        source: "stored" as const,
        updated_at: r.updated_at.toISOString(),
        purpose: purposeOf(r.ref),
      }));
      const known = new Set(stored.map((s) => environmentName(s.ref)));
      const fromEnv = Object.keys(deps.env)
        .filter((name) => name.startsWith("SECRET_") && name.length > 7 && deps.env[name] && !known.has(name))
        .map((name) => {
          const ref = canonicalSecretRef(name.slice(7));
          return { ref, source: "environment" as const, updated_at: null, purpose: purposeOf(ref) };
        });
      return [...stored, ...fromEnv].sort((a, b) => a.ref.localeCompare(b.ref));
    },
  };
  return store;
}
