import type { GatewaySettings, GatewaySettingsRepository } from "../../application/payments/gateway-settings-ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import type { Sql } from "./database.ts";

/** Stored settings win; a gateway nobody configured through the API runs on `defaults` (from the environment). */
export function createPostgresGatewaySettingsRepository(
  sql: Sql,
  defaults: (gateway: PaymentGatewayName) => GatewaySettings,
): GatewaySettingsRepository {
  return {
    async get(gateway) {
      const [row] = await sql<Omit<GatewaySettings, "gateway">[]>`
        select environment, sandbox, live, webhook_tolerance_seconds, timeout_seconds, tax_behavior
        from gateway_settings where gateway = ${gateway}`;
      return row ? { gateway, ...row } : defaults(gateway);
    },
    async save(settings, audit) {
      await sql.begin(async (tx) => {
        await tx`
          insert into gateway_settings
            (gateway, environment, sandbox, live, webhook_tolerance_seconds, timeout_seconds, tax_behavior)
          values (${settings.gateway}, ${settings.environment}, ${tx.json({ ...settings.sandbox })},
                  ${tx.json({ ...settings.live })}, ${settings.webhook_tolerance_seconds}, ${settings.timeout_seconds},
                  ${settings.tax_behavior})
          on conflict (gateway) do update
            set environment = excluded.environment, sandbox = excluded.sandbox, live = excluded.live,
                webhook_tolerance_seconds = excluded.webhook_tolerance_seconds,
                timeout_seconds = excluded.timeout_seconds, tax_behavior = excluded.tax_behavior, updated_at = now()`;
        if (audit) await createPostgresAuditLogWriter(tx).record(audit);
      });
    },
  };
}
