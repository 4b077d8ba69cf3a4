import type { DownloadEntitlement, License, LicenseWriter } from "../../application/fulfillment/license-ports.ts";
import { columnList } from "./column-list.ts";
import type { Queryable, Sql } from "./database.ts";

const LICENSE_COLUMNS = [
  "id",
  "fulfillment_record_id",
  "customer_id",
  "product_id",
  "license_type",
  "license_key",
  "max_activations",
  "floating",
  "heartbeat_seconds",
  "offline_checkout_max_days",
  "expires_at",
  "status",
  "created_at",
];
const ENTITLEMENT_COLUMNS = [
  "id",
  "fulfillment_record_id",
  "license_id",
  "customer_id",
  "product_id",
  "artifact_source",
  "version",
  "revoked_at",
  "created_at",
];

export function createPostgresLicenseWriter(sql: Sql): LicenseWriter {
  const licenseColumns = columnList(sql, LICENSE_COLUMNS);
  const entitlementColumns = columnList(sql, ENTITLEMENT_COLUMNS);

  async function findForRecord(fulfillmentRecordId: string, db: Queryable = sql) {
    const [license] = await db<License[]>`
      select ${licenseColumns} from licenses where fulfillment_record_id = ${fulfillmentRecordId}`;
    const [entitlement] = await db<DownloadEntitlement[]>`
      select ${entitlementColumns} from download_entitlements where fulfillment_record_id = ${fulfillmentRecordId}`;
    return license && entitlement ? { license, entitlement } : undefined;
  }

  async function findById(licenseId: string, db: Queryable = sql) {
    const [license] = await db<License[]>`select ${licenseColumns} from licenses where id = ${licenseId}`;
    const [entitlement] = await db<DownloadEntitlement[]>`
      select ${entitlementColumns} from download_entitlements where license_id = ${licenseId}`;
    return license && entitlement ? { license, entitlement } : undefined;
  }

  return {
    findForRecord: (fulfillmentRecordId) => findForRecord(fulfillmentRecordId),
    findById: (licenseId) => findById(licenseId),

    async upgradeFor(orderItemId) {
      const [found] = await sql<{ license_id: string; from_type: string; to_type: string }[]>`
        select license_id, from_type, to_type from license_upgrades where order_item_id = ${orderItemId}`;
      return found;
    },

    async revertUpgrade(licenseId, change) {
      return sql.begin(async (tx) => {
        const reverted = await tx`
          update licenses set
            license_type = ${change.license_type},
            license_key = ${change.license_key},
            previous_key = null,
            previous_key_valid_until = null
          where id = ${licenseId} and license_type = ${change.upgraded_type}`;
        if (reverted.count > 0) {
          await tx`
            insert into license_events (license_id, kind, actor, detail)
            values (${licenseId}, 'upgrade_reverted', 'system', ${tx.json({ license_type: change.license_type })})`;
        }
        return findById(licenseId, tx);
      });
    },

    async upgrade(licenseId, change) {
      // Under the row's lock: a second run finds the type already changed and leaves the key be.
      return sql.begin(async (tx) => {
        const changed = await tx`
          update licenses set
            previous_key = license_key,
            previous_key_valid_until = ${change.previous_key_valid_until},
            license_key = ${change.license_key},
            license_type = ${change.license_type}
          where id = ${licenseId} and license_type <> ${change.license_type}`;
        if (changed.count > 0) {
          await tx`
            insert into license_events (license_id, kind, actor, detail)
            values (${licenseId}, 'upgraded', 'system', ${tx.json({ license_type: change.license_type })})`;
        }
        return findById(licenseId, tx);
      });
    },

    issue({ license, entitlement }) {
      return sql.begin(async (tx) => {
        const [created] = await tx<License[]>`
          insert into licenses (id, fulfillment_record_id, customer_id, product_id, license_type, license_key,
                                max_activations, floating, heartbeat_seconds, offline_checkout_max_days,
                                expires_at, status)
          values (${license.id}, ${license.fulfillment_record_id}, ${license.customer_id}, ${license.product_id},
                  ${license.license_type}, ${license.license_key}, ${license.max_activations}, ${license.floating},
                  ${license.heartbeat_seconds}, ${license.offline_checkout_max_days}, ${license.expires_at}, 'active')
          on conflict (fulfillment_record_id) do nothing
          returning ${licenseColumns}`;
        if (!created) {
          const existing = await findForRecord(license.fulfillment_record_id, tx);
          if (!existing) throw new Error(`the license of fulfillment ${license.fulfillment_record_id} is incomplete`);
          return existing;
        }
        const [granted] = await tx<DownloadEntitlement[]>`
          insert into download_entitlements (fulfillment_record_id, license_id, customer_id, product_id,
                                             artifact_source, version)
          values (${created.fulfillment_record_id}, ${created.id}, ${created.customer_id}, ${created.product_id},
                  ${entitlement.artifact_source}, ${entitlement.version})
          returning ${entitlementColumns}`;
        if (!granted) throw new Error("download entitlement insert returned no row");
        await tx`insert into license_events (license_id, kind, actor) values (${created.id}, 'issued', 'system')`;
        return { license: created, entitlement: granted };
      });
    },

    revokeForRecord(fulfillmentRecordId) {
      return sql.begin(async (tx) => {
        await tx`
          with revoked as (
            update licenses set status = 'revoked'
            where fulfillment_record_id = ${fulfillmentRecordId} and status <> 'revoked'
            returning id
          )
          insert into license_events (license_id, kind, actor) select id, 'revoked', 'system' from revoked`;
        await tx`
          update download_entitlements set revoked_at = now()
          where fulfillment_record_id = ${fulfillmentRecordId} and revoked_at is null`;
        return findForRecord(fulfillmentRecordId, tx);
      });
    },

    async changeForRecord(fulfillmentRecordId, { from, to, expiresAt }) {
      // A perpetual license (no expiry) stays perpetual; a revoked one keeps the expiry it ended with.
      // A license an admin holds stays suspended whatever the billing does, until reinstated.
      // A move of status goes into the license's history, as the billing's doing.
      await sql`
        with before as (
          select id, status from licenses where fulfillment_record_id = ${fulfillmentRecordId} for update
        ), changed as (
          update licenses l set
            status = case when l.status = ${from} and not (l.held and ${to} = 'active') then ${to} else l.status end,
            expires_at = case when l.status <> 'revoked' and l.expires_at < ${expiresAt ?? null}::timestamptz
                              then ${expiresAt ?? null}::timestamptz else l.expires_at end
          from before b where l.id = b.id
          returning l.id, l.status, b.status as was
        )
        insert into license_events (license_id, kind, actor)
        select id, case when status = 'suspended' then 'suspended' else 'reinstated' end, 'system'
        from changed where status <> was`;
      return findForRecord(fulfillmentRecordId);
    },
  };
}
