import type { Clock } from "../shared/clock-and-log.ts";
import {
  ActivationLimitReached,
  CustomerLicenseNotFound,
  LicenseNotFound,
  LicenseUnusable,
  MachineNotFound,
  type UnusableReason,
} from "./errors.ts";
import type { LicenseActivations, LicenseVerifier, MachineFacts, StoredLicense } from "./ports.ts";

/** Activation and validation for software in the field: the signature first, then the record. */
export function makeLicenseService(deps: { store: LicenseActivations; verifier: LicenseVerifier; clock: Clock }) {
  async function resolve(key: string) {
    const claims = await deps.verifier.verify(key);
    const stored = claims ? await deps.store.findByKey(key) : undefined;
    return stored && claims?.lid === stored.id ? stored : undefined;
  }

  const expired = (license: StoredLicense) => license.expires_at !== null && license.expires_at <= deps.clock();
  // A revoked license stays revoked whatever its dates; a suspended one comes back when paid. A key
  // an upgrade replaced works through its grace period, then says so.
  const replaced = (license: StoredLicense) =>
    license.replaced_key_valid_until !== null && license.replaced_key_valid_until <= deps.clock();
  const unusable = (license: StoredLicense): UnusableReason | null =>
    license.status !== "active" ? license.status : replaced(license) ? "replaced" : expired(license) ? "expired" : null;

  async function own(customerId: string, licenseId: string) {
    if ((await deps.store.ownerOf(licenseId)) !== customerId) throw new CustomerLicenseNotFound();
  }

  return {
    publicKeyPem: () => deps.verifier.publicKeyPem(),

    async activate(key: string, fingerprint: string, facts?: MachineFacts) {
      const license = await resolve(key);
      if (!license) throw new LicenseNotFound();
      const reason = unusable(license);
      if (reason) throw new LicenseUnusable(reason);
      const result = await deps.store.activate(license.id, fingerprint, facts);
      if (result === "limit") throw new ActivationLimitReached(license.max_activations);
      return {
        activated: true as const,
        new_activation: result.activated,
        activations: result.activations,
        max_activations: license.max_activations,
      };
    },

    /** The software gives its seat back (an uninstall, a machine replaced): idempotent by its 404. */
    async deactivate(key: string, fingerprint: string) {
      const license = await resolve(key);
      if (!license) throw new LicenseNotFound();
      if (!(await deps.store.release(license.id, { fingerprint }))) throw new MachineNotFound();
      return { deactivated: true as const };
    },

    /** The machines of one of the customer's licenses; another customer's license is not found. */
    async machines(customerId: string, licenseId: string) {
      await own(customerId, licenseId);
      return deps.store.machines(licenseId);
    },

    /** The customer frees a machine's seat from the account. */
    async releaseMachine(customerId: string, licenseId: string, machineId: string) {
      await own(customerId, licenseId);
      if (!(await deps.store.release(licenseId, { id: machineId }))) throw new MachineNotFound();
    },

    async validate(key: string) {
      const license = await resolve(key);
      if (!license) return { valid: false as const, reason: "unknown_or_tampered" as const };
      const reason = unusable(license);
      return {
        valid: reason === null,
        reason,
        license_id: license.id,
        product_id: license.product_id,
        product_name: license.product_name,
        license_type: license.license_type,
        expires_at: license.expires_at?.toISOString() ?? null,
        activations: license.activations,
        max_activations: license.max_activations,
      };
    },
  };
}
