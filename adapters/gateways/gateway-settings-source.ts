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
import { CredentialsNotFound } from "../../application/shared/errors.ts";
import type { ChangeSignal } from "../../application/shared/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { GatewayHostNotAllowed } from "../../domain/payments/errors.ts";
import { type GatewayHostPolicy, gatewayHostRefusal } from "../../domain/payments/gateway-hosts.ts";
import { gatewayPurpose, type SecretPurpose } from "../../domain/secrets/secret-purpose.ts";

/**
 * The active environment's settings with secret values resolved, read at every gateway call so an
 * admin's change applies at once; the stored settings are cached until any instance changes them.
 * Each secret is resolved for its purpose (this gateway, this environment, this kind of key), and a
 * live key goes only to an address `hosts` allows.
 */
export function createGatewaySettingsSource(deps: {
  repository: GatewaySettingsRepository;
  secrets: SecretStore;
  changes: ChangeSignal;
  hosts: GatewayHostPolicy;
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
  const required = async (ref: string, purpose: SecretPurpose) => {
    const value = await deps.secrets.resolve(ref, purpose);
    if (value === undefined) throw new CredentialsNotFound("gateway", ref);
    return value;
  };
  const optional = async (ref: string | null, purpose: SecretPurpose) =>
    ref === null ? undefined : deps.secrets.resolve(ref, purpose);

  return {
    async activeEnvironment(gateway) {
      return (await settingsOf(gateway)).environment;
    },
    async resolve(gateway): Promise<GatewayRuntimeSettings> {
      const settings = await settingsOf(gateway);
      const { environment } = settings;
      const env = settings[environment];
      const refusal = gatewayHostRefusal(deps.hosts, gateway, environment, env.base_url);
      if (refusal) throw new GatewayHostNotAllowed(`/${environment}/base_url`, refusal);
      return {
        gateway,
        environment,
        base_url: env.base_url,
        api_key: await required(env.api_key_ref, gatewayPurpose("gateway_api_key", gateway, environment)),
        client_key:
          (await optional(env.client_key_ref, gatewayPurpose("gateway_client_key", gateway, environment))) ?? null,
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
        const purpose = gatewayPurpose("gateway_webhook_secret", gateway, environment);
        const secrets = [
          await optional(env.webhook_secret_ref, purpose),
          await optional(env.previous_webhook_secret_ref, purpose),
        ];
        const configured = secrets.filter((secret): secret is string => secret !== undefined);
        if (configured.length > 0) {
          found.push({ environment, secrets: configured, tolerance_seconds: settings.webhook_tolerance_seconds });
        }
      }
      return found;
    },
  };
}
