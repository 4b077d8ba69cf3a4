import type { GatewayDiscountRefs } from "../../application/payments/ports.ts";
import type { Sql } from "./database.ts";

export function createPostgresGatewayDiscountRefs(sql: Sql): GatewayDiscountRefs {
  return {
    async find(discountId, gateway, environment, slot) {
      const [row] = await sql<{ remote_id: string }[]>`
        select remote_id from gateway_discount_refs
        where discount_id = ${discountId} and gateway = ${gateway} and environment = ${environment} and slot = ${slot}`;
      return row?.remote_id;
    },

    async put(discountId, gateway, environment, slot, remoteId) {
      const [row] = await sql<{ remote_id: string }[]>`
        with inserted as (
          insert into gateway_discount_refs (discount_id, gateway, environment, slot, remote_id)
          values (${discountId}, ${gateway}, ${environment}, ${slot}, ${remoteId})
          on conflict do nothing returning remote_id)
        select remote_id from inserted
        union all
        select remote_id from gateway_discount_refs
        where discount_id = ${discountId} and gateway = ${gateway} and environment = ${environment} and slot = ${slot}
        limit 1`;
      return row?.remote_id ?? remoteId;
    },

    async list(discountId, gateway, environment) {
      const rows = await sql<{ remote_id: string }[]>`
        select remote_id from gateway_discount_refs
        where discount_id = ${discountId} and gateway = ${gateway} and environment = ${environment}
        order by created_at`;
      return rows.map((row) => row.remote_id);
    },
  };
}
