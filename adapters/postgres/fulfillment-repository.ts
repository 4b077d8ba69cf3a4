import type { FulfillmentRepository } from "../../application/fulfillment/ports.ts";
import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

export const FULFILLMENT_COLUMNS = [
  "id",
  "order_id",
  "order_item_id",
  "product_id",
  "customer_id",
  "driver",
  "status",
  "external_reference_id",
  "external_workspace_url",
  "external_customer_id",
  "external_status",
  "attempts",
  "last_error",
  "payload_snapshot",
  "created_at",
  "updated_at",
];

export function createPostgresFulfillmentRepository(sql: Queryable): FulfillmentRepository {
  const columns = columnList(sql, FULFILLMENT_COLUMNS);
  return {
    async find(id) {
      if (!isUuid(id)) return undefined;
      const [record] = await sql<FulfillmentRecord[]>`select ${columns} from fulfillment_records where id = ${id}`;
      return record;
    },

    async list(filter, page) {
      const keyset = newestFirst<FulfillmentRecord>(sql, page);
      const rows = await sql<FulfillmentRecord[]>`
        select ${columns} from fulfillment_records
        where true
          ${filter.status ? sql`and status = ${filter.status}` : sql``}
          ${filter.driver ? sql`and driver = ${filter.driver}` : sql``}
          ${filter.customer_id ? sql`and customer_id = ${filter.customer_id}` : sql``}
          ${filter.order_id ? sql`and order_id = ${filter.order_id}` : sql``}
          ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },

    async createQueued(order, items) {
      if (items.length === 0) return [];
      const rows = items.map((item) => ({
        order_id: order.id,
        order_item_id: item.id,
        product_id: item.product_id,
        customer_id: order.customer_id,
        driver: item.fulfillment_driver,
        status: "queued",
        payload_snapshot: sql.json({
          order_id: order.id,
          order_item_id: item.id,
          variant: item.variant,
          quantity: item.quantity,
          options: item.options,
          delivery_model: item.delivery_model,
        } as never),
      }));
      const created = await sql<FulfillmentRecord[]>`
        insert into fulfillment_records ${sql(rows)}
        on conflict (order_item_id) do nothing
        returning ${columns}`;
      return [...created];
    },

    async transition(id, guard, change) {
      const external = change.external ?? {};
      const [record] = await sql<FulfillmentRecord[]>`
        update fulfillment_records set
          status = ${change.status},
          attempts = coalesce(${change.attempts ?? null}::int, attempts),
          last_error = case when ${change.last_error !== undefined} then ${change.last_error ?? null} else last_error end,
          external_reference_id = coalesce(${external.external_reference_id ?? null}, external_reference_id),
          external_workspace_url = coalesce(${external.external_workspace_url ?? null}, external_workspace_url),
          external_customer_id = coalesce(${external.external_customer_id ?? null}, external_customer_id),
          external_status = coalesce(${external.external_status ?? null}, external_status),
          payload_snapshot = coalesce(${change.snapshot ? sql.json(change.snapshot as never) : null}::jsonb, payload_snapshot),
          updated_at = now()
        where id = ${id} and status = any(${guard.from as string[]}::text[])
        returning ${columns}`;
      return record;
    },

    async reclaim(id, attempts) {
      const [record] = await sql<FulfillmentRecord[]>`
        update fulfillment_records set attempts = ${attempts}, updated_at = now()
        where id = ${id} and status = 'processing'
        returning ${columns}`;
      return record;
    },

    async setExternalStatus(id, state) {
      await sql`
        update fulfillment_records set external_status = ${state.external_status},
          external_workspace_url = coalesce(${state.external_workspace_url ?? null}, external_workspace_url), updated_at = now()
        where id = ${id}`;
    },

    async linkTenant(link) {
      await sql`
        insert into external_tenant_links ${sql(link)}
        on conflict (fulfillment_record_id) do update
          set external_tenant_id = excluded.external_tenant_id,
              external_subscription_id = excluded.external_subscription_id,
              external_user_id = excluded.external_user_id`;
    },
  };
}
