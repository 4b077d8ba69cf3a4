import type { LicenseActivations, Machine, StoredLicense } from "../../application/licensing/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Sql } from "./database.ts";

export function createPostgresLicenseActivations(sql: Sql): LicenseActivations {
  return {
    async findByKey(key) {
      const [row] = await sql<StoredLicense[]>`
        select l.id, l.product_id, p.name as product_name, l.license_type, l.max_activations, l.expires_at, l.status,
               (select count(*)::int from license_activations a where a.license_id = l.id) as activations,
               case when l.license_key = ${key} then null else l.previous_key_valid_until end
                 as replaced_key_valid_until
        from licenses l join products p on p.id = l.product_id
        where l.license_key = ${key} or l.previous_key = ${key}`;
      return row;
    },
    async ownerOf(licenseId) {
      if (!isUuid(licenseId)) return undefined;
      const [row] = await sql<{ customer_id: string }[]>`select customer_id from licenses where id = ${licenseId}`;
      return row?.customer_id;
    },
    async machines(licenseId) {
      return [
        ...(await sql<Machine[]>`
          select id, fingerprint, name, platform, hostname, created_at as activated_at, last_seen_at
          from license_activations where license_id = ${licenseId} order by created_at, id`),
      ];
    },
    async release(licenseId, machine) {
      if ("id" in machine && !isUuid(machine.id)) return false;
      const released =
        "id" in machine
          ? await sql`delete from license_activations where license_id = ${licenseId} and id = ${machine.id}`
          : await sql`delete from license_activations where license_id = ${licenseId} and fingerprint = ${machine.fingerprint}`;
      return released.count > 0;
    },
    activate(licenseId, fingerprint, facts = {}) {
      return sql.begin(async (tx) => {
        // The license row lock serializes activations, so concurrent machines cannot exceed the maximum.
        const [license] = await tx<{ max_activations: number }[]>`
          select max_activations from licenses where id = ${licenseId} for update`;
        // A known machine is seen again; what it says of itself now replaces what it said before.
        const [known] = await tx`
          update license_activations set last_seen_at = now(),
            name = coalesce(${facts.name ?? null}, name),
            platform = coalesce(${facts.platform ?? null}, platform),
            hostname = coalesce(${facts.hostname ?? null}, hostname)
          where license_id = ${licenseId} and fingerprint = ${fingerprint}
          returning 1`;
        const [count] = await tx<
          { n: number }[]
        >`select count(*)::int as n from license_activations where license_id = ${licenseId}`;
        const activations = count?.n ?? 0;
        if (known) return { activated: false, activations };
        if (!license || activations >= license.max_activations) return "limit" as const;
        await tx`
          insert into license_activations (license_id, fingerprint, name, platform, hostname)
          values (${licenseId}, ${fingerprint}, ${facts.name ?? null}, ${facts.platform ?? null}, ${facts.hostname ?? null})`;
        return { activated: true, activations: activations + 1 };
      });
    },
  };
}
