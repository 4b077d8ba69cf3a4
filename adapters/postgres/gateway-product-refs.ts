import type { GatewayProductRefs, GatewayRef } from "../../application/payments/ports.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import type { Sql } from "./database.ts";

export function createPostgresGatewayProductRefs(sql: Sql): GatewayProductRefs {
  return {
    async list(productId, gateway, environment) {
      const rows = await sql<GatewayRef[]>`
        select slot, remote_id, amount, currency, tax_behavior from gateway_product_refs
        where product_id = ${productId} and gateway = ${gateway} and environment = ${environment}
        order by slot`;
      return [...rows];
    },
    async put(productId, gateway, environment, ref, audit) {
      await sql.begin(async (tx) => {
        await tx`
          insert into gateway_product_refs (product_id, gateway, environment, slot, remote_id, amount, currency, tax_behavior)
          values (${productId}, ${gateway}, ${environment}, ${ref.slot}, ${ref.remote_id}, ${ref.amount}, ${ref.currency},
                  ${ref.tax_behavior})
          on conflict (product_id, gateway, environment, slot) do update
            set remote_id = excluded.remote_id, amount = excluded.amount, currency = excluded.currency,
                tax_behavior = excluded.tax_behavior, updated_at = now()`;
        if (audit) await createPostgresAuditLogWriter(tx).record(audit);
      });
    },
  };
}
