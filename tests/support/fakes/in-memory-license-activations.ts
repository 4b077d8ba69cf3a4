import type {
  ActivationResult,
  LicenseActivations,
  Machine,
  StoredLicense,
} from "../../../application/licensing/ports.ts";

type License = Omit<StoredLicense, "activations">;

/**
 * Licenses by key with the machines each is activated on, as the real store keeps them: a known
 * machine is not counted twice, a new one past `max_activations` is refused, a floating license's
 * machines past their heartbeat give their seats back, and a machine holding a license file keeps
 * its seat until the file expires.
 */
export function createInMemoryLicenseActivations() {
  const byKey = new Map<string, License>();
  const machines = new Map<string, Machine[]>();
  const events: { license_id: string; kind: string; actor: string; fingerprint: string }[] = [];
  const machinesOf = (licenseId: string) => machines.get(licenseId) ?? [];
  const licenseOf = (licenseId: string) => [...byKey.values()].find((l) => l.id === licenseId);
  const holdsFile = (machine: Machine, now: Date) =>
    machine.checked_out_until !== null && machine.checked_out_until > now;
  const overdue = (license: License | undefined, machine: Machine, now: Date) =>
    license?.floating === true &&
    machine.last_seen_at.getTime() + (license.heartbeat_seconds ?? 0) * 1000 < now.getTime() &&
    !holdsFile(machine, now);
  const change = (licenseId: string, fingerprint: string, patch: Partial<Machine>) =>
    machines.set(
      licenseId,
      machinesOf(licenseId).map((m) => (m.fingerprint === fingerprint ? { ...m, ...patch } : m)),
    );

  function drop(licenseId: string, fingerprint: string, kind: string, actor: string) {
    machines.set(
      licenseId,
      machinesOf(licenseId).filter((m) => m.fingerprint !== fingerprint),
    );
    events.push({ license_id: licenseId, kind, actor, fingerprint });
  }

  const store: LicenseActivations = {
    ownerOf: async (licenseId) => (licenseOf(licenseId) ? "owner" : undefined),
    machines: async (licenseId) => machinesOf(licenseId),
    machine: async (licenseId, fingerprint) => machinesOf(licenseId).find((m) => m.fingerprint === fingerprint),
    async heartbeat(licenseId, fingerprint, now) {
      if (!machinesOf(licenseId).some((m) => m.fingerprint === fingerprint)) return undefined;
      change(licenseId, fingerprint, { last_seen_at: now });
      return machinesOf(licenseId).find((m) => m.fingerprint === fingerprint);
    },
    async release(licenseId, machine, actor, now) {
      const found = machinesOf(licenseId).find((m) =>
        "id" in machine ? m.id === machine.id : m.fingerprint === machine.fingerprint,
      );
      if (!found) return "none";
      if (holdsFile(found, now)) return "checked_out";
      drop(licenseId, found.fingerprint, "deactivated", actor);
      return "released";
    },
    async releaseIdle(now, _limit, only) {
      let released = 0;
      for (const [licenseId, list] of machines) {
        if (only && only.licenseId !== licenseId) continue;
        for (const machine of list.filter((m) => overdue(licenseOf(licenseId), m, now))) {
          if (only && only.fingerprint !== machine.fingerprint) continue;
          drop(licenseId, machine.fingerprint, "released", "system");
          released += 1;
        }
      }
      return released;
    },
    async checkedOut(licenseId, fingerprint, expiresAt) {
      const found = machinesOf(licenseId).find((m) => m.fingerprint === fingerprint);
      const until =
        found?.checked_out_until && found.checked_out_until > expiresAt ? found.checked_out_until : expiresAt;
      change(licenseId, fingerprint, { checked_out_until: until });
      events.push({ license_id: licenseId, kind: "checked_out", actor: "software", fingerprint });
    },
    async findByKey(key) {
      const license = byKey.get(key);
      return license && { ...license, activations: machinesOf(license.id).length };
    },
    async activate({ id, key }, fingerprint, facts, clock): Promise<ActivationResult> {
      const license = byKey.get(key);
      if (license?.id !== id) return { outcome: "key_replaced" };
      if (license.status !== "active") return { outcome: "unusable", status: license.status };
      const now = clock();
      for (const machine of machinesOf(id).filter((m) => overdue(license, m, now))) {
        drop(id, machine.fingerprint, "released", "system");
      }
      const known = machinesOf(id);
      if (known.some((m) => m.fingerprint === fingerprint)) {
        await store.heartbeat(id, fingerprint, now);
        return { outcome: "activated", new_activation: false, activations: known.length };
      }
      if (known.length >= license.max_activations) {
        const frees = known.map((m) =>
          Math.max(
            m.last_seen_at.getTime() + (license.heartbeat_seconds ?? 0) * 1000,
            m.checked_out_until?.getTime() ?? 0,
          ),
        );
        const retry = license.floating ? Math.max(1, Math.ceil((Math.min(...frees) - now.getTime()) / 1000)) : null;
        return { outcome: "limit", retry_after: retry };
      }
      const machine: Machine = {
        id: `machine-${fingerprint}`,
        fingerprint,
        name: facts.name ?? null,
        platform: facts.platform ?? null,
        hostname: facts.hostname ?? null,
        activated_at: now,
        last_seen_at: now,
        checked_out_until: null,
      };
      machines.set(id, [...known, machine]);
      events.push({ license_id: id, kind: "activated", actor: "software", fingerprint });
      return { outcome: "activated", new_activation: true, activations: known.length + 1 };
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
    /** Takes a key away from its license, as a reissue does. */
    forget(key: string) {
      byKey.delete(key);
    },
    /** The fingerprints a license is activated on. */
    fingerprints: (licenseId: string) => machinesOf(licenseId).map((m) => m.fingerprint),
    /** What the store wrote into the licenses' history. */
    events: () => [...events],
  };
}
