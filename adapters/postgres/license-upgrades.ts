import type { LicenseUpgrades, UpgradableLicense } from "../../application/checkout/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Sql } from "./database.ts";

/** Licenses with the purchase they came from, and the order items that upgrade them. */
export function createPostgresLicenseUpgrades(sql: Sql): LicenseUpgrades {
  return {
    async find(licenseId) {
      if (!isUuid(licenseId)) return undefined;
      const [found] = await sql<UpgradableLicense[]>`
        select l.id, l.customer_id, l.product_id, l.license_type, l.status, i.order_id, i.payment_type, i.quantity,
               o.payment_gateway
        from licenses l
        join fulfillment_records f on f.id = l.fulfillment_record_id
        join order_items i on i.id = f.order_item_id
        join orders o on o.id = i.order_id
        where l.id = ${licenseId}`;
      return found;
    },
    async pending(licenseId) {
      const [found] = await sql<{ order_id: string }[]>`
        select i.order_id from license_upgrades u
        join order_items i on i.id = u.order_item_id
        join orders o on o.id = i.order_id
        where u.license_id = ${licenseId}
          and (o.status in ('pending_payment', 'paid', 'flagged', 'partially_refunded', 'disputed')
               or (o.status = 'checkout_failed' and o.created_at > now() - interval '1 day'))
        limit 1`;
      return found;
    },
    async record(orderItemId, licenseId, fromType, toType) {
      await sql`
        insert into license_upgrades (order_item_id, license_id, from_type, to_type)
        values (${orderItemId}, ${licenseId}, ${fromType}, ${toType})
        on conflict (order_item_id) do nothing`;
    },
  };
}
