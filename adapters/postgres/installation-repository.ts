import type { Installation, InstallationRepository } from "../../application/provisioning/ports.ts";
import { InstallationDomainTaken } from "../../domain/fulfillment/errors.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";

const COLUMNS = [
  "id",
  "fulfillment_record_id",
  "customer_id",
  "product_id",
  "server_profile",
  "resource_limits_profile",
  "domain_strategy",
  "domain",
  "url",
  "status",
  "created_at",
  "updated_at",
];

/** The unique index on the domains of installations not cancelled said no. */
function refuseTaken(error: unknown): never {
  const { code, constraint_name } = (error ?? {}) as { code?: string; constraint_name?: string };
  throw code === "23505" && constraint_name === "installations_live_domain" ? new InstallationDomainTaken() : error;
}

export function createPostgresInstallationRepository(sql: Queryable): InstallationRepository {
  const columns = columnList(sql, COLUMNS);

  async function findForRecord(fulfillmentRecordId: string) {
    const [installation] = await sql<Installation[]>`
      select ${columns} from installations where fulfillment_record_id = ${fulfillmentRecordId}`;
    return installation;
  }

  return {
    findForRecord,

    async claimDomain(fulfillmentRecordId, domain) {
      await sql`
        update installations set domain = ${domain}, updated_at = now()
        where fulfillment_record_id = ${fulfillmentRecordId} and status = 'awaiting_domain'`.catch(refuseTaken);
    },

    async upsert(draft) {
      const [installation] = await sql<Installation[]>`
        insert into installations (fulfillment_record_id, customer_id, product_id, server_profile,
                                   resource_limits_profile, domain_strategy, domain, status)
        values (${draft.fulfillment_record_id}, ${draft.customer_id}, ${draft.product_id}, ${draft.server_profile},
                ${draft.resource_limits_profile}, ${draft.domain_strategy}, ${draft.domain}, ${draft.status})
        on conflict (fulfillment_record_id) do update
          set server_profile = excluded.server_profile,
              resource_limits_profile = excluded.resource_limits_profile,
              domain_strategy = excluded.domain_strategy,
              domain = excluded.domain,
              status = excluded.status,
              updated_at = now()
          where installations.status in ('awaiting_domain', 'provisioning')
        returning ${columns}`.catch(refuseTaken);
      const current = installation ?? (await findForRecord(draft.fulfillment_record_id));
      if (!current) throw new Error(`the installation of fulfillment ${draft.fulfillment_record_id} vanished`);
      return current;
    },

    async update(id, from, change) {
      const [installation] = await sql<Installation[]>`
        update installations
        set status = ${change.status}, url = coalesce(${change.url ?? null}, url), updated_at = now()
        where id = ${id} and status in ${sql(from)}
        returning ${columns}`;
      return installation;
    },
  };
}
