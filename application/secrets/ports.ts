import type { SecretPurpose, SecretUse } from "../../domain/secrets/secret-purpose.ts";
import type { AuditEntry } from "../audit/ports.ts";

export interface SecretListing {
  readonly ref: string;
  readonly source: "stored" | "environment";
  readonly updated_at: string | null;
  /** What the secret may be used for; undefined until it is declared or first used. */
  readonly purpose: SecretPurpose | undefined;
}

/**
 * Resolves a secret reference (`credentials_ref`, gateway keys) to its value, only for the purpose
 * the secret has. Values come from an encrypted store written through the admin API or from the
 * environment; they are never returned by the API, logged, or kept in product records.
 *
 * A reference's purpose is fixed by its name (`gateway_b_sandbox_webhook_secret`), else declared
 * when its value is stored, else taken from the first setting that uses it; after that, any other
 * use throws `SecretPurposeMismatch`.
 */
export interface SecretStore {
  /** The value, when `ref` has (or takes) `purpose`; undefined when nothing is stored under it. */
  resolve(ref: string, purpose: SecretPurpose): Promise<string | undefined>;
  /** Gives `ref` the purpose of its use when it has none; throws `SecretPurposeMismatch` naming every use that differs. */
  claim(uses: readonly SecretUse[]): Promise<void>;
  /** Whether a value is stored or set in the environment under `ref`; never the value. */
  has(ref: string): Promise<boolean>;
  /**
   * With a `purpose`, the value is stored for it (a new value may take a new purpose: the old value
   * is gone); without one, it keeps the purpose the reference had. With `audit`, its entry is
   * written in the transaction that stores the value.
   */
  put(ref: string, value: string, purpose: SecretPurpose | undefined, audit?: AuditEntry): Promise<void>;
  list(): Promise<SecretListing[]>;
}

export type { SecretPurpose, SecretUse } from "../../domain/secrets/secret-purpose.ts";

/** Shared with every feature that sends a secret somewhere (see `secret-destinations.ts`). */
export {
  destinationAlert,
  newDestinations,
  providerDestinations,
  recordNewDestinations,
  type SecretDestination,
  type SecretUseLog,
} from "./secret-destinations.ts";
