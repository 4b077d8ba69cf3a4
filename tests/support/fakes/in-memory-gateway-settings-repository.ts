import type {
  EnvironmentSettings,
  GatewaySettings,
  GatewaySettingsRepository,
} from "../../../application/payments/gateway-settings-ports.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";

const environment = (gateway: PaymentGatewayName, name: "sandbox" | "live"): EnvironmentSettings => ({
  base_url: `https://${name}.${gateway}.example`,
  api_key_ref: `${gateway}_${name}_api_key`,
  client_key_ref: null,
  webhook_secret_ref: `${gateway}_${name}_webhook_secret`,
  previous_webhook_secret_ref: null,
});

/** Gateway settings in memory: defaults for each gateway until something is saved. */
export function createInMemoryGatewaySettingsRepository() {
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
    async save(settings) {
      saved.set(settings.gateway, settings);
      saves += 1;
    },
  };
  return { ...repository, saves: () => saves };
}
