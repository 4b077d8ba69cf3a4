import type { LicenseActivations, Machine, StoredLicense } from "../../../application/licensing/ports.ts";

type License = Omit<StoredLicense, "activations">;

/**
 * Licenses by key with the machines each is activated on, as the real store keeps them: a known
 * machine is not counted twice, and a new one past `max_activations` is refused.
 */
export function createInMemoryLicenseActivations() {
  const byKey = new Map<string, License>();
  const machines = new Map<string, Set<string>>();
  const machinesOf = (licenseId: string) => machines.get(licenseId) ?? new Set<string>();

  const machineOf = (fingerprint: string): Machine => ({
    id: `machine-${fingerprint}`,
    fingerprint,
    name: null,
    platform: null,
    hostname: null,
    activated_at: new Date(0),
    last_seen_at: new Date(0),
  });

  const store: LicenseActivations = {
    ownerOf: async (licenseId) => ([...byKey.values()].some((l) => l.id === licenseId) ? "owner" : undefined),
    machines: async (licenseId) => [...machinesOf(licenseId)].map(machineOf),
    async release(licenseId, machine) {
      const known = machinesOf(licenseId);
      const fingerprint = "fingerprint" in machine ? machine.fingerprint : machine.id.replace(/^machine-/, "");
      if (!known.has(fingerprint)) return false;
      machines.set(licenseId, new Set([...known].filter((each) => each !== fingerprint)));
      return true;
    },
    async findByKey(key) {
      const license = byKey.get(key);
      return license && { ...license, activations: machinesOf(license.id).size };
    },
    async activate(licenseId, fingerprint) {
      const license = [...byKey.values()].find((l) => l.id === licenseId);
      const known = machinesOf(licenseId);
      if (known.has(fingerprint)) return { activated: false, activations: known.size };
      if (!license || known.size >= license.max_activations) return "limit";
      machines.set(licenseId, new Set([...known, fingerprint]));
      return { activated: true, activations: known.size + 1 };
    },
  };

  return {
    ...store,
    add(key: string, license: License) {
      byKey.set(key, license);
    },
    change(licenseId: string, patch: Partial<Pick<License, "status" | "expires_at" | "max_activations">>) {
      for (const [key, license] of byKey) if (license.id === licenseId) byKey.set(key, { ...license, ...patch });
    },
    /** The fingerprints a license is activated on. */
    fingerprints: (licenseId: string) => [...machinesOf(licenseId)],
  };
}
