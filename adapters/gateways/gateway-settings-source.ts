import {
  GATEWAY_SETTINGS_TOPIC,
  type GatewaySettings,
  type GatewaySettingsRepository,
} from "../../application/payments/gateway-settings-ports.ts";
import type {
  GatewayRuntimeSettings,
  GatewaySettingsSource,
  WebhookSecrets,
} from "../../application/payments/ports.ts";
import type { SecretStore } from "../../application/secrets/ports.ts";
import type { ChangeSignal } from "../../application/shared/ports.ts";
import { CredentialsNotFound } from "../../application/shared/upstream-errors.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";

/**
 * The active environment's settings with secret values resolved, read at every gateway call so an
 * admin's change applies at once; the stored settings are cached until any instance changes them.
 */
export function createGatewaySettingsSource(deps: {
  repository: GatewaySettingsRepository;
  secrets: SecretStore;
  changes: ChangeSignal;
}): GatewaySettingsSource {
  const cache = new Map<PaymentGatewayName, Promise<GatewaySettings>>();
  deps.changes.subscribe(GATEWAY_SETTINGS_TOPIC, () => cache.clear());
  const settingsOf = (gateway: PaymentGatewayName) => {
    let found = cache.get(gateway);
    if (!found) {
      found = deps.repository.get(gateway);
      found.catch(() => cache.delete(gateway));
      cache.set(gateway, found);
    }
    return found;
  };
  const required = async (ref: string) => {
    const value = await deps.secrets.resolve(ref);
    if (value === undefined) throw new CredentialsNotFound("gateway", ref);
    return value;
  };
  const optional = async (ref: string | null) => (ref === null ? undefined : deps.secrets.resolve(ref));

  return {
    async activeEnvironment(gateway) {
      return (await settingsOf(gateway)).environment;
    },
    async resolve(gateway): Promise<GatewayRuntimeSettings> {
      const settings = await settingsOf(gateway);
      const env = settings[settings.environment];
      return {
        gateway,
        environment: settings.environment,
        base_url: env.base_url,
        api_key: await required(env.api_key_ref),
        client_key: (await optional(env.client_key_ref)) ?? null,
        webhook_tolerance_seconds: settings.webhook_tolerance_seconds,
        timeout_seconds: settings.timeout_seconds,
        tax_behavior: settings.tax_behavior,
      };
    },
    async taxBehavior(gateway) {
      return (await settingsOf(gateway)).tax_behavior;
    },
    async webhookSecrets(gateway) {
      const settings = await settingsOf(gateway);
      const found: WebhookSecrets[] = [];
      // The active environment first: nearly every event is signed with its secret.
      for (const environment of [settings.environment, settings.environment === "live" ? "sandbox" : "live"] as const) {
        const env = settings[environment];
        const secrets = [await optional(env.webhook_secret_ref), await optional(env.previous_webhook_secret_ref)];
        const configured = secrets.filter((secret): secret is string => secret !== undefined);
        if (configured.length > 0) {
          found.push({ environment, secrets: configured, tolerance_seconds: settings.webhook_tolerance_seconds });
        }
      }
      return found;
    },
  };
}
