import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import {
  ActivationLimitReached,
  CustomerLicenseNotFound,
  FingerprintNotActivated,
  HeartbeatMissed,
  LicenseNotFound,
  LicenseUnusable,
  MachineCheckedOut,
  MachineNotFound,
  OfflineCheckoutDisabled,
  type UnusableReason,
} from "./errors.ts";
import type {
  LicenseActivations,
  LicenseFileSigner,
  LicenseVerifier,
  Machine,
  MachineFacts,
  StoredLicense,
} from "./ports.ts";

const DAY_MS = 86_400_000;

/** Why `validate` finds a license not valid: the license's state, or the machine's that asked. */
export type InvalidReason = UnusableReason | "fingerprint_not_activated" | "heartbeat_missed";

const CODES: Readonly<Record<InvalidReason, string>> = {
  revoked: "LICENSE_REVOKED",
  suspended: "LICENSE_SUSPENDED",
  expired: "LICENSE_EXPIRED",
  replaced: "LICENSE_REPLACED",
  fingerprint_not_activated: "FINGERPRINT_NOT_ACTIVATED",
  heartbeat_missed: "HEARTBEAT_MISSED",
};

/** When the machine must next check in; null when the license asks for no heartbeats. */
export const heartbeatDue = (
  license: Pick<StoredLicense, "heartbeat_seconds">,
  machine: Pick<Machine, "last_seen_at">,
) =>
  license.heartbeat_seconds === null
    ? null
    : new Date(machine.last_seen_at.getTime() + license.heartbeat_seconds * 1000);

/**
 * Activation, heartbeats, validation and offline files for software in the field: the key's
 * signature first, then the record. The key is the credential; nothing answered names the customer.
 */
export function makeLicenseService(deps: {
  store: LicenseActivations;
  verifier: LicenseVerifier;
  files: LicenseFileSigner;
  clock: Clock;
}) {
  async function resolve(key: string) {
    const claims = await deps.verifier.verify(key);
    const stored = claims ? await deps.store.findByKey(key) : undefined;
    return stored && claims?.lid === stored.id ? stored : undefined;
  }

  const expired = (license: StoredLicense) => license.expires_at !== null && license.expires_at <= deps.clock();
  // A revoked license stays revoked whatever its dates; a suspended one comes back when paid. A key
  // an upgrade or a reissue replaced works through its grace period (none for a reissue), then says so.
  const replaced = (license: StoredLicense) =>
    license.replaced_key_valid_until !== null && license.replaced_key_valid_until <= deps.clock();
  const unusable = (license: StoredLicense): UnusableReason | null =>
    license.status !== "active" ? license.status : replaced(license) ? "replaced" : expired(license) ? "expired" : null;
  // A machine holding a valid license file is offline by design: its silence is no missed heartbeat.
  const missed = (license: StoredLicense, machine: Machine) => {
    const now = deps.clock();
    const due = heartbeatDue(license, machine);
    const offline = machine.checked_out_until !== null && machine.checked_out_until > now;
    return due !== null && due < now && !offline;
  };

  /** A usable license and its machine, alive: what a heartbeat and a checkout need. */
  async function liveMachine(key: string, fingerprint: string) {
    const license = await resolve(key);
    if (!license) throw new LicenseNotFound();
    const reason = unusable(license);
    if (reason) throw new LicenseUnusable(reason);
    const machine = await deps.store.machine(license.id, fingerprint);
    if (!machine) throw new FingerprintNotActivated();
    if (license.floating && missed(license, machine)) {
      // Not yet released by the tick: its seat is back in the pool all the same.
      await deps.store.releaseIdle(deps.clock(), 1, { licenseId: license.id, fingerprint });
      throw new HeartbeatMissed();
    }
    return { license, machine };
  }

  async function own(customerId: string, licenseId: string) {
    if ((await deps.store.ownerOf(licenseId)) !== customerId) throw new CustomerLicenseNotFound();
  }

  /** A seat freed, or why not: no such machine, or one holding a license file still valid. */
  async function release(...args: Parameters<LicenseActivations["release"]>) {
    const released = await deps.store.release(...args);
    if (released === "none") throw new MachineNotFound();
    if (released === "checked_out") throw new MachineCheckedOut();
  }

  return {
    publicKeyPem: () => deps.verifier.publicKeyPem(),

    async activate(key: string, fingerprint: string, facts: MachineFacts = {}) {
      const license = await resolve(key);
      if (!license) throw new LicenseNotFound();
      const reason = unusable(license);
      if (reason) throw new LicenseUnusable(reason);
      const result = await deps.store.activate({ id: license.id, key }, fingerprint, facts, deps.clock);
      if (result.outcome === "key_replaced") throw new LicenseUnusable("replaced");
      if (result.outcome === "unusable") throw new LicenseUnusable(result.status);
      if (result.outcome === "limit") throw new ActivationLimitReached(license.max_activations, result.retry_after);
      return {
        activated: true as const,
        new_activation: result.new_activation,
        activations: result.activations,
        max_activations: license.max_activations,
        next_heartbeat_before:
          license.heartbeat_seconds === null
            ? null
            : new Date(deps.clock().getTime() + license.heartbeat_seconds * 1000).toISOString(),
      };
    },

    /**
     * The software gives its seat back (an uninstall, a machine replaced): idempotent by its 404. A
     * key replaced (a leaked key reissued) frees nothing once its grace is over.
     */
    async deactivate(key: string, fingerprint: string) {
      const license = await resolve(key);
      if (!license) throw new LicenseNotFound();
      if (replaced(license)) throw new LicenseUnusable("replaced");
      await release(license.id, { fingerprint }, "software", deps.clock());
      return { deactivated: true as const };
    },

    /** The machine is alive: a floating seat stays held for another `heartbeat_seconds`. */
    async heartbeat(key: string, fingerprint: string) {
      const { license } = await liveMachine(key, fingerprint);
      const seen = await deps.store.heartbeat(license.id, fingerprint, deps.clock());
      if (!seen) throw new FingerprintNotActivated();
      return { machine_id: seen.id, next_heartbeat_before: heartbeatDue(license, seen)?.toISOString() ?? null };
    },

    /**
     * A license file for a machine that will be offline: signed, bound to the fingerprint, and good
     * for `ttlDays` (at most the license's `offline_checkout_max_days`, never past its expiry).
     */
    async checkout(key: string, fingerprint: string, ttlDays: number) {
      const { license } = await liveMachine(key, fingerprint);
      const max = license.offline_checkout_max_days;
      if (max === 0) throw new OfflineCheckoutDisabled();
      if (!Number.isInteger(ttlDays) || ttlDays < 1 || ttlDays > max) {
        throw new ValidationFailed([
          { path: "/ttl_days", code: "OUT_OF_RANGE", message: `must be a whole number of days from 1 to ${max}` },
        ]);
      }
      const now = deps.clock();
      const until = new Date(now.getTime() + ttlDays * DAY_MS);
      const expiresAt = license.expires_at !== null && license.expires_at < until ? license.expires_at : until;
      const file = await deps.files.signFile({
        license_id: license.id,
        product_id: license.product_id,
        product_name: license.product_name,
        license_type: license.license_type,
        entitlements: license.entitlements,
        fingerprint,
        issued_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      });
      await deps.store.checkedOut(license.id, fingerprint, expiresAt, now);
      return { license_file: file, expires_at: expiresAt.toISOString() };
    },

    /** The machines of one of the customer's licenses; another customer's license is not found. */
    async machines(customerId: string, licenseId: string) {
      await own(customerId, licenseId);
      return deps.store.machines(licenseId);
    },

    /** The customer frees a machine's seat from the account. */
    async releaseMachine(customerId: string, licenseId: string, machineId: string) {
      await own(customerId, licenseId);
      await release(licenseId, { id: machineId }, "customer", deps.clock());
    },

    /** The minute tick: floating machines that stopped checking in give their seats back. */
    releaseIdleMachines: (now: Date) => deps.store.releaseIdle(now, 1000),

    /**
     * Whether the key works now and, given a fingerprint, on that machine. `code` says why not in
     * the words the activation refusals use.
     */
    async validate(key: string, fingerprint?: string) {
      const license = await resolve(key);
      if (!license)
        return { valid: false as const, code: "LICENSE_NOT_FOUND" as const, reason: "unknown_or_tampered" as const };
      let reason: InvalidReason | null = unusable(license);
      if (reason === null && fingerprint !== undefined) {
        const machine = await deps.store.machine(license.id, fingerprint);
        reason = !machine ? "fingerprint_not_activated" : missed(license, machine) ? "heartbeat_missed" : null;
      }
      return {
        valid: reason === null,
        code: reason === null ? null : CODES[reason],
        reason,
        license_id: license.id,
        product_id: license.product_id,
        product_name: license.product_name,
        license_type: license.license_type,
        expires_at: license.expires_at?.toISOString() ?? null,
        activations: license.activations,
        max_activations: license.max_activations,
        floating: license.floating,
      };
    },
  };
}
