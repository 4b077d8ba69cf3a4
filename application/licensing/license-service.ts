import type { Clock } from "../shared/clock-and-log.ts";
import { ActivationLimitReached, LicenseNotFound, LicenseUnusable, type UnusableReason } from "./errors.ts";
import type { LicenseActivations, LicenseVerifier, StoredLicense } from "./ports.ts";

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

  return {
    publicKeyPem: () => deps.verifier.publicKeyPem(),

    async activate(key: string, fingerprint: string) {
      const license = await resolve(key);
      if (!license) throw new LicenseNotFound();
      const reason = unusable(license);
      if (reason) throw new LicenseUnusable(reason);
      const result = await deps.store.activate(license.id, fingerprint);
      if (result === "limit") throw new ActivationLimitReached(license.max_activations);
      return {
        activated: true as const,
        new_activation: result.activated,
        activations: result.activations,
        max_activations: license.max_activations,
      };
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
