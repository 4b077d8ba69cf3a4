export interface LicenseClaims {
  readonly lid: string;
  readonly pid: string;
  readonly cid: string;
  readonly typ: string;
  readonly max: number;
  readonly exp: number | null;
}

export interface StoredLicense {
  readonly id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly license_type: string;
  readonly max_activations: number;
  readonly expires_at: Date | null;
  readonly status: "active" | "suspended" | "revoked";
  readonly activations: number;
  /** Set when the key given is the one the license had before an upgrade re-signed it: it works until then. */
  readonly replaced_key_valid_until: Date | null;
}

export interface LicenseActivations {
  findByKey(key: string): Promise<StoredLicense | undefined>;
  /** Adds the fingerprint unless present; refuses past `max_activations`, atomically. */
  activate(licenseId: string, fingerprint: string): Promise<{ activated: boolean; activations: number } | "limit">;
}

export interface LicenseVerifier {
  verify(key: string): Promise<LicenseClaims | undefined>;
  publicKeyPem(): string;
}
