import type {
  AdminLicense,
  LicenseAdminReader,
  LicenseAdminWriter,
  LicenseEvent,
} from "../../../application/licensing/admin-ports.ts";
import type { Machine } from "../../../application/licensing/ports.ts";

/**
 * Licenses as admins see and change them, kept in memory: the reader and the transaction's
 * writer over one map, with each license's machines and history, restorable as a rolled-back
 * transaction is.
 */
export function createInMemoryLicenseAdmin() {
  let licenses = new Map<string, AdminLicense>();
  let machines = new Map<string, Machine[]>();
  let history: (LicenseEvent & { license_id: string })[] = [];
  /** Keys a reissue took away, by license. */
  let replacedKeys = new Map<string, string>();

  const reader: LicenseAdminReader = {
    async list(filter, page) {
      const items = [...licenses.values()]
        .filter((l) => !filter.status || l.status === filter.status)
        .filter((l) => !filter.product_id || l.product_id === filter.product_id)
        .filter((l) => !filter.customer_email || l.customer_email.toLowerCase() === filter.customer_email.toLowerCase())
        .filter((l) => !filter.key_prefix || l.license_key.startsWith(filter.key_prefix))
        .slice(0, page.limit);
      return { items, next_cursor: null };
    },
    find: async (id) => {
      const license = licenses.get(id);
      return license && { ...license, activations: (machines.get(id) ?? []).length };
    },
    machines: async (id) => machines.get(id) ?? [],
    history: async (id, limit) =>
      history
        .filter((event) => event.license_id === id)
        .reverse()
        .slice(0, limit)
        .map(({ license_id: _, ...event }) => event),
  };

  const writer: LicenseAdminWriter = {
    lock: (id) => reader.find(id),
    async apply(id, change, actor, at) {
      const license = licenses.get(id);
      if (!license) throw new Error(`no license ${id}`);
      let next = license;
      if (change.kind === "suspended" && license.status !== "revoked")
        next = { ...license, status: "suspended", held: true };
      if (change.kind === "reinstated" && license.status === "suspended")
        next = { ...license, status: "active", held: false };
      if (change.kind === "extended") next = { ...license, expires_at: change.expires_at };
      if (change.kind === "reissued") {
        replacedKeys.set(id, license.license_key);
        next = { ...license, license_key: change.license_key, reissues: license.reissues + 1 };
      }
      if (change.kind === "machines_reset") machines.set(id, []);
      licenses.set(id, next);
      history.push({
        license_id: id,
        id: String(history.length + 1),
        kind: change.kind,
        actor,
        fingerprint: null,
        detail: {},
        at,
      });
      return { ...(await reader.find(id)), ...next, activations: (machines.get(id) ?? []).length };
    },
  };

  return {
    reader,
    writer,
    add(license: AdminLicense, ofMachines: Machine[] = []) {
      licenses.set(license.id, license);
      machines.set(license.id, ofMachines);
    },
    replacedKey: (id: string) => replacedKeys.get(id),
    snapshot() {
      const kept = {
        licenses: new Map(licenses),
        machines: new Map(machines),
        history: [...history],
        replacedKeys: new Map(replacedKeys),
      };
      return () => {
        licenses = kept.licenses;
        machines = kept.machines;
        history = kept.history;
        replacedKeys = kept.replacedKeys;
      };
    },
  };
}
