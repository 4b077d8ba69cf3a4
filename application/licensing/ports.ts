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

/** What the software says of the machine it runs on, when it activates. */
export interface MachineFacts {
  readonly name?: string | undefined;
  readonly platform?: string | undefined;
  readonly hostname?: string | undefined;
}

/** An activation: one machine holding one of the license's seats. */
export interface Machine {
  readonly id: string;
  readonly fingerprint: string;
  readonly name: string | null;
  readonly platform: string | null;
  readonly hostname: string | null;
  readonly activated_at: Date;
  readonly last_seen_at: Date;
}

export interface LicenseActivations {
  findByKey(key: string): Promise<StoredLicense | undefined>;
  /** Whose license it is; undefined when there is none with the id. */
  ownerOf(licenseId: string): Promise<string | undefined>;
  /**
   * Adds the fingerprint unless present (a known one is seen again, its facts kept up to date);
   * refuses past `max_activations`, atomically.
   */
  activate(
    licenseId: string,
    fingerprint: string,
    facts?: MachineFacts,
  ): Promise<{ activated: boolean; activations: number } | "limit">;
  machines(licenseId: string): Promise<Machine[]>;
  /** Frees the machine's seat; false when the license has no such machine (freed before). */
  release(licenseId: string, machine: { readonly id: string } | { readonly fingerprint: string }): Promise<boolean>;
}

export interface LicenseVerifier {
  verify(key: string): Promise<LicenseClaims | undefined>;
  publicKeyPem(): string;
}
