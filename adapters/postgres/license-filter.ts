import type postgres from "postgres";
import type { AdminLicenseFilter } from "../../application/licensing/admin-ports.ts";
import type { Queryable } from "./database.ts";

/** A `like` pattern matching the text literally at the start. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The admin license list's filter as `where` conditions (each starts with `and`) over the admin's
 * license row (license-admin.ts): the list and the CSV export share it.
 */
export function licenseConditions(sql: Queryable, filter: AdminLicenseFilter): postgres.Fragment {
  return sql`
    ${filter.customer_email ? sql`and lower(customer_email) = lower(${filter.customer_email})` : sql``}
    ${filter.product_id ? sql`and product_id = ${filter.product_id}` : sql``}
    ${filter.status ? sql`and status = ${filter.status}` : sql``}
    ${
      filter.key_prefix
        ? sql`and (license_key like ${startsWith(filter.key_prefix)} or previous_key like ${startsWith(filter.key_prefix)})`
        : sql``
    }`;
}
