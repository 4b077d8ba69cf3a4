import type { AuditEntry } from "../audit/ports.ts";

export interface SecretListing {
  readonly ref: string;
  readonly source: "stored" | "environment";
  readonly updated_at: string | null;
}

/**
 * Resolves a secret reference (`credentials_ref`, gateway keys) to its value. Values come from an
 * encrypted store written through the admin API or from the environment; they are never returned
 * by the API, logged, or kept in product records.
 */
export interface SecretStore {
  resolve(ref: string): Promise<string | undefined>;
  /** With `audit`, its entry is written in the transaction that stores the value. */
  put(ref: string, value: string, audit?: AuditEntry): Promise<void>;
  list(): Promise<SecretListing[]>;
}
