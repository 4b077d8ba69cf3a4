import type { LicenseActivations, StoredLicense } from "../../application/licensing/ports.ts";
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
    activate(licenseId, fingerprint) {
      return sql.begin(async (tx) => {
        // The license row lock serializes activations, so concurrent machines cannot exceed the maximum.
        const [license] = await tx<{ max_activations: number }[]>`
          select max_activations from licenses where id = ${licenseId} for update`;
        const [known] =
          await tx`select 1 from license_activations where license_id = ${licenseId} and fingerprint = ${fingerprint}`;
        const [count] = await tx<
          { n: number }[]
        >`select count(*)::int as n from license_activations where license_id = ${licenseId}`;
        const activations = count?.n ?? 0;
        if (known) return { activated: false, activations };
        if (!license || activations >= license.max_activations) return "limit" as const;
        await tx`insert into license_activations (license_id, fingerprint) values (${licenseId}, ${fingerprint})`;
        return { activated: true, activations: activations + 1 };
      });
    },
  };
}
