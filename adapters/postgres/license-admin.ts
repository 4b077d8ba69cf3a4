import type {
  AdminLicense,
  LicenseAdminReader,
  LicenseAdminWriter,
  LicenseEvent,
} from "../../application/licensing/admin-ports.ts";
import type { Machine } from "../../application/licensing/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";
import { licenseConditions } from "./license-filter.ts";

/** A license with whose it is, what it is of and how many seats are taken, as one row. */
const LICENSES = (sql: Queryable) => sql`
  select l.id, l.customer_id, u.email as customer_email, l.product_id, p.name as product_name,
         f.order_id, l.license_type, l.license_key, l.previous_key, l.status, l.held, l.max_activations,
         l.floating, l.heartbeat_seconds, l.offline_checkout_max_days, l.expires_at, l.created_at,
         (select count(*)::int from license_activations a where a.license_id = l.id) as activations,
         (select count(*)::int from license_events e where e.license_id = l.id and e.kind = 'reissued') as reissues
  from licenses l
  join users u on u.id = l.customer_id
  join products p on p.id = l.product_id
  join fulfillment_records f on f.id = l.fulfillment_record_id`;

const withoutPreviousKey = ({ previous_key: _, ...license }: AdminLicense & { previous_key: string | null }) => license;

export function createPostgresLicenseAdminReader(sql: Queryable): LicenseAdminReader {
  return {
    async list(filter, page) {
      const keyset = newestFirst<AdminLicense & { previous_key: string | null }>(sql, page);
      const rows = await sql<(AdminLicense & { previous_key: string | null })[]>`
        select * from (${LICENSES(sql)}) l
        where true ${licenseConditions(sql, filter)}
          ${keyset.after}
        ${keyset.orderAndLimit}`;
      const cut = keyset.cut(rows);
      return { items: cut.items.map(withoutPreviousKey), next_cursor: cut.next_cursor };
    },
    async find(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<(AdminLicense & { previous_key: string | null })[]>`
        select * from (${LICENSES(sql)}) l where id = ${id}`;
      return row && withoutPreviousKey(row);
    },
    async machines(id) {
      if (!isUuid(id)) return [];
      return [
        ...(await sql<Machine[]>`
          select id, fingerprint, name, platform, hostname, created_at as activated_at, last_seen_at,
                 checked_out_until
          from license_activations where license_id = ${id} order by created_at, id`),
      ];
    },
    async history(id, limit) {
      if (!isUuid(id)) return [];
      const rows = await sql<(Omit<LicenseEvent, "id"> & { id: string })[]>`
        select id::text, kind, actor, fingerprint, detail, at from license_events
        where license_id = ${id} order by at desc, id desc limit ${limit}`;
      return [...rows];
    },
  };
}

/** The admin's changes, bound to the caller's transaction. */
export function createPostgresLicenseAdminWriter(tx: Queryable): LicenseAdminWriter {
  const reader = createPostgresLicenseAdminReader(tx);
  async function note(id: string, kind: string, actor: string, detail: object, at: Date) {
    await tx`
      insert into license_events (license_id, kind, actor, detail, at)
      values (${id}, ${kind}, ${actor}, ${tx.json(detail as Parameters<typeof tx.json>[0])}, ${at})`;
  }
  return {
    async lock(id) {
      if (!isUuid(id)) return undefined;
      // `no key update`: history inserts (key share) of other transactions need not wait on it.
      const [locked] = await tx`select 1 from licenses where id = ${id} for no key update`;
      return locked ? reader.find(id) : undefined;
    },
    async apply(id, change, actor, at) {
      let detail: object = {};
      switch (change.kind) {
        case "suspended":
          await tx`update licenses set status = 'suspended', held = true where id = ${id} and status <> 'revoked'`;
          break;
        case "reinstated":
          await tx`update licenses set status = 'active', held = false where id = ${id} and status = 'suspended'`;
          break;
        case "machines_reset": {
          const freed = await tx`delete from license_activations where license_id = ${id}`;
          detail = { ...detail, machines_freed: freed.count };
          break;
        }
        case "extended":
          detail = { ...detail, expires_at: change.expires_at.toISOString() };
          await tx`update licenses set expires_at = ${change.expires_at} where id = ${id}`;
          break;
        case "reissued":
          // The key it replaces answers `replaced` from now on, and activates nothing; held machines
          // (an admin's reset is the override) keep theirs.
          await tx`
            update licenses set previous_key = license_key, previous_key_valid_until = ${change.at},
                                license_key = ${change.license_key}
            where id = ${id}`;
          break;
      }
      await note(id, change.kind, actor, detail, at);
      const after = await reader.find(id);
      if (!after) throw new Error(`license ${id} vanished inside its own transaction`);
      return after;
    },
  };
}
