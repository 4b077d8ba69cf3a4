import type { Queryable } from "./database.ts";

export type InstallationStatus = "awaiting_domain" | "provisioning" | "active" | "suspended" | "cancelled";

/** A dedicated installation of a single-tenant product: one per fulfillment record. */
export interface Installation {
  readonly id: string;
  readonly fulfillment_record_id: string;
  readonly customer_id: string;
  readonly product_id: string;
  readonly server_profile: string;
  readonly resource_limits_profile: string;
  readonly domain_strategy: "subdomain" | "customer_domain";
  readonly domain: string | null;
  readonly url: string | null;
  readonly status: InstallationStatus;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export type InstallationDraft = Pick<
  Installation,
  | "fulfillment_record_id"
  | "customer_id"
  | "product_id"
  | "server_profile"
  | "resource_limits_profile"
  | "domain_strategy"
  | "domain"
> & { readonly status: "awaiting_domain" | "provisioning" };

export interface InstallationRepository {
  findForRecord(fulfillmentRecordId: string): Promise<Installation | undefined>;
  /**
   * Creates the record's installation, or updates it while it is still being set up. An installation
   * already past set-up (active, suspended, cancelled) is left as it is and returned.
   */
  upsert(draft: InstallationDraft): Promise<Installation>;
  /** Moves an installation on; `from` guards against a concurrent change. Undefined when it was not in `from`. */
  update(
    id: string,
    from: readonly InstallationStatus[],
    change: { status: InstallationStatus; url?: string },
  ): Promise<Installation | undefined>;
}

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

export function createPostgresInstallationRepository(sql: Queryable): InstallationRepository {
  const columns = sql(COLUMNS);

  async function findForRecord(fulfillmentRecordId: string) {
    const [installation] = await sql<Installation[]>`
      select ${columns} from installations where fulfillment_record_id = ${fulfillmentRecordId}`;
    return installation;
  }

  return {
    findForRecord,

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
        returning ${columns}`;
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
