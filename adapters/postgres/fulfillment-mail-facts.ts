import type {
  FulfillmentMailFacts,
  FulfillmentMailFactsReader,
  LicenseMailFacts,
  LicenseMailFactsReader,
} from "../../application/notifications/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";

/** Who to email about a delivery and what to say: the customer, the product as bought, the workspace. */
export function createPostgresFulfillmentMailFacts(sql: Queryable): FulfillmentMailFactsReader {
  return {
    async forFulfillment(fulfillmentId) {
      if (!isUuid(fulfillmentId)) return undefined;
      const [row] = await sql<FulfillmentMailFacts[]>`
        select u.id as customer_id, u.guest as customer_guest, u.email as customer_email, u.name as customer_name, i.product_name, f.order_id, f.driver,
               f.external_workspace_url as workspace_url, f.attempts, f.payload_snapshot->>'awaiting' as awaiting,
               l.license_key, e.id as entitlement_id
        from fulfillment_records f
        join order_items i on i.id = f.order_item_id
        join users u on u.id = f.customer_id
        left join license_upgrades lu on lu.order_item_id = f.order_item_id
        left join licenses l on l.id = lu.license_id or (lu.license_id is null and l.fulfillment_record_id = f.id)
        left join download_entitlements e on e.license_id = l.id and e.revoked_at is null
        where f.id = ${fulfillmentId}`;
      return row;
    },
  };
}

/** Who to email about a license: its customer, its product, and the key it has now. */
export function createPostgresLicenseMailFacts(sql: Queryable): LicenseMailFactsReader {
  return {
    async forLicense(licenseId) {
      if (!isUuid(licenseId)) return undefined;
      const [row] = await sql<LicenseMailFacts[]>`
        select u.id as customer_id, u.guest as customer_guest, u.email as customer_email, u.name as customer_name,
               p.name as product_name, f.order_id, l.license_key
        from licenses l
        join users u on u.id = l.customer_id
        join products p on p.id = l.product_id
        join fulfillment_records f on f.id = l.fulfillment_record_id
        where l.id = ${licenseId}`;
      return row;
    },
  };
}
