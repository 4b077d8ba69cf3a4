import type { AuditLogWriter } from "../../../application/audit/ports.ts";
import type {
  EnvironmentSettings,
  GatewaySettings,
  GatewaySettingsRepository,
} from "../../../application/payments/gateway-settings-ports.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";

const environment = (gateway: PaymentGatewayName, name: "sandbox" | "live"): EnvironmentSettings => ({
  base_url: `https://${name}.${gateway}.example`,
  api_key_ref: `${gateway}_${name}_api_key`,
  client_key_ref: null,
  webhook_secret_ref: `${gateway}_${name}_webhook_secret`,
  previous_webhook_secret_ref: null,
});

/** Gateway settings in memory: defaults for each gateway until something is saved (with its audit entry, to `trail`). */
export function createInMemoryGatewaySettingsRepository(trail: AuditLogWriter = createInMemoryAuditLogWriter()) {
  const saved = new Map<PaymentGatewayName, GatewaySettings>();
  let saves = 0;
  const defaults = (gateway: PaymentGatewayName): GatewaySettings => ({
    gateway,
    environment: "sandbox",
    sandbox: environment(gateway, "sandbox"),
    live: environment(gateway, "live"),
    webhook_tolerance_seconds: 300,
    timeout_seconds: 10,
    tax_behavior: "exclusive",
  });
  const repository: GatewaySettingsRepository = {
    get: async (gateway) => saved.get(gateway) ?? defaults(gateway),
    async save(settings, audit) {
      saved.set(settings.gateway, settings);
      saves += 1;
      if (audit) await trail.record(audit);
    },
  };
  return { ...repository, saves: () => saves };
}
