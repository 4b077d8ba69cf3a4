import type { Page, PageRequest } from "../shared/ports.ts";
import type { LicenseActor, LicenseClaims, Machine } from "./ports.ts";

export const LICENSE_STATUSES = ["active", "suspended", "revoked"] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

export interface AdminLicenseFilter {
  /** The customer's address, exactly (any case). */
  readonly customer_email?: string;
  readonly product_id?: string;
  readonly status?: LicenseStatus;
  /** The start of a key a customer read out: matches the current key or the one it replaced. */
  readonly key_prefix?: string;
}

/** A license as the shop's staff see it. */
export interface AdminLicense {
  readonly id: string;
  readonly customer_id: string;
  readonly customer_email: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly order_id: string;
  readonly license_type: string;
  readonly license_key: string;
  readonly status: LicenseStatus;
  /** Suspended by an admin: only a reinstate lifts it, not a renewal. */
  readonly held: boolean;
  readonly max_activations: number;
  readonly floating: boolean;
  readonly heartbeat_seconds: number | null;
  readonly offline_checkout_max_days: number;
  readonly activations: number;
  /** How many times the shop gave it a new key. */
  readonly reissues: number;
  readonly expires_at: Date | null;
  readonly created_at: Date;
}

/** One line of a license's history. */
export interface LicenseEvent {
  readonly id: string;
  readonly kind: string;
  readonly actor: string;
  readonly fingerprint: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly at: Date;
}

export interface LicenseAdminReader {
  list(filter: AdminLicenseFilter, page: PageRequest): Promise<Page<AdminLicense>>;
  find(id: string): Promise<AdminLicense | undefined>;
  machines(id: string): Promise<Machine[]>;
  /** Newest first. */
  history(id: string, limit: number): Promise<LicenseEvent[]>;
}

/** An admin's change to a license, with the line it writes into the license's history. */
export type LicenseChange =
  | { readonly kind: "suspended" }
  | { readonly kind: "reinstated" }
  | { readonly kind: "machines_reset" }
  | { readonly kind: "extended"; readonly expires_at: Date }
  | { readonly kind: "reissued"; readonly license_key: string; readonly at: Date };

/** License changes inside the caller's transaction (with its audit entry, notice and event). */
export interface LicenseAdminWriter {
  /** The license, its row locked for the rest of the transaction; undefined when there is none. */
  lock(id: string): Promise<AdminLicense | undefined>;
  /** Applies the change and notes it in the history; returns the license after it. */
  apply(id: string, change: LicenseChange, actor: LicenseActor, at: Date): Promise<AdminLicense>;
}

/** Signs a license key. */
export interface LicenseKeySigner {
  sign(claims: LicenseClaims): Promise<string>;
}
