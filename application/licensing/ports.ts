/** What a license key states, signed: see adapters/licensing/license-signer.ts for the format. */
export interface LicenseClaims {
  readonly lid: string;
  readonly pid: string;
  readonly cid: string;
  readonly typ: string;
  readonly max: number;
  /** Issued at, unix seconds. */
  readonly iat: number;
  /** Expiry, unix seconds; null: perpetual. */
  readonly exp: number | null;
  /** How many times the shop reissued the key; absent on a key never reissued. */
  readonly rev?: number;
}

/** The activation policy a license was issued under (the product's driver config at the time). */
export interface ActivationPolicy {
  readonly max_activations: number;
  /** Concurrent use: a machine that stops sending heartbeats gives its seat back to the pool. */
  readonly floating: boolean;
  /** How often a machine checks in; null when the license asks for no heartbeats. */
  readonly heartbeat_seconds: number | null;
  /** The longest offline license file a machine may check out; 0 when it may not. */
  readonly offline_checkout_max_days: number;
}

export interface StoredLicense extends ActivationPolicy {
  readonly id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly license_type: string;
  readonly expires_at: Date | null;
  readonly status: "active" | "suspended" | "revoked";
  readonly activations: number;
  /** What the license grants besides running: `download:<version>` while its download entitlement stands. */
  readonly entitlements: readonly string[];
  /** Set when the key given is the one the license had before an upgrade or a reissue replaced it: it works until then. */
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
  /** Until then it holds an offline license file, and its seat, whatever its heartbeats. */
  readonly checked_out_until: Date | null;
}

/** Who changed a license: the software holding its key, its customer, an admin, or the system (the tick). */
export type LicenseActor = "software" | "customer" | "system" | `admin:${string}`;

export type ActivationResult =
  | { readonly outcome: "activated"; readonly new_activation: boolean; readonly activations: number }
  /** Every seat is taken; on a floating license, `retry_after` seconds until the next one may free. */
  | { readonly outcome: "limit"; readonly retry_after: number | null }
  /** The key stopped being the license's between the lookup and the lock (a reissue won the race). */
  | { readonly outcome: "key_replaced" }
  /** The license stopped being active between the lookup and the lock (an admin suspended it). */
  | { readonly outcome: "unusable"; readonly status: "suspended" | "revoked" };

/** What freeing a seat did: freed it, found no such machine, or left it to its offline license file. */
export type Release = "released" | "none" | "checked_out";

export interface LicenseActivations {
  findByKey(key: string): Promise<StoredLicense | undefined>;
  /** Whose license it is; undefined when there is none with the id. */
  ownerOf(licenseId: string): Promise<string | undefined>;
  /**
   * Adds the fingerprint unless present (a known one is seen again, its facts kept up to date);
   * refuses past `max_activations`, atomically, under the license's lock. On a floating license the
   * machines past their heartbeat are released first. The key must still be one the license
   * answers to, and the license active, when the lock is held; `clock` is read then.
   */
  activate(
    license: { readonly id: string; readonly key: string },
    fingerprint: string,
    facts: MachineFacts,
    clock: () => Date,
  ): Promise<ActivationResult>;
  /** The machine with the fingerprint, alive or not; undefined when the license has none. */
  machine(licenseId: string, fingerprint: string): Promise<Machine | undefined>;
  /** Records that the machine is alive now; undefined when the license has no such machine. */
  heartbeat(licenseId: string, fingerprint: string, now: Date): Promise<Machine | undefined>;
  machines(licenseId: string): Promise<Machine[]>;
  /** Frees the machine's seat, unless it holds a license file still valid at `now`. */
  release(
    licenseId: string,
    machine: { readonly id: string } | { readonly fingerprint: string },
    actor: LicenseActor,
    now: Date,
  ): Promise<Release>;
  /**
   * Frees every floating machine whose last heartbeat is older than its license's
   * `heartbeat_seconds` and that holds no valid license file (of one license and one fingerprint
   * when given); how many.
   */
  releaseIdle(
    now: Date,
    limit: number,
    only?: { readonly licenseId: string; readonly fingerprint: string },
  ): Promise<number>;
  /** The machine holds a license file until `expiresAt` (never shortened), noted in the history. */
  checkedOut(licenseId: string, fingerprint: string, expiresAt: Date, now: Date): Promise<void>;
}

export interface LicenseVerifier {
  verify(key: string): Promise<LicenseClaims | undefined>;
  publicKeyPem(): string;
}

/** What an offline license file states, signed as it is given to the machine. */
export interface LicenseFileClaims {
  readonly license_id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly license_type: string;
  readonly entitlements: readonly string[];
  readonly fingerprint: string;
  readonly issued_at: string;
  readonly expires_at: string;
}

export interface LicenseFileSigner {
  /** The file's text: the claims, signed with the license key pair. */
  signFile(claims: LicenseFileClaims): Promise<string>;
}
