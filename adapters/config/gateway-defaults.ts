import type { GatewaySettings } from "../../application/payments/gateway-settings-ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { Config } from "./config.ts";

const SECRETS = ["api_key", "client_key", "webhook_secret"] as const;
const ENVIRONMENTS = ["sandbox", "live"] as const;

/** `gateway_a_sandbox_api_key` and so on: the secret references the environment's values live under. */
const ref = (gateway: PaymentGatewayName, environment: string, secret: string) => `${gateway}_${environment}_${secret}`;

/** Settings of a gateway nobody configured through the API: base URLs from the environment and default references. */
export function defaultGatewaySettings(config: Config) {
  return (gateway: PaymentGatewayName): GatewaySettings => {
    const defaults = config.gateways[gateway];
    const environment = (name: "sandbox" | "live") => ({
      base_url: name === "sandbox" ? defaults.sandboxBaseUrl : defaults.liveBaseUrl,
      api_key_ref: ref(gateway, name, "api_key"),
      client_key_ref: ref(gateway, name, "client_key"),
      webhook_secret_ref: ref(gateway, name, "webhook_secret"),
      previous_webhook_secret_ref: null,
    });
    return {
      gateway,
      environment: defaults.environment,
      sandbox: environment("sandbox"),
      live: environment("live"),
      webhook_tolerance_seconds: defaults.webhookToleranceSeconds,
      timeout_seconds: config.gatewayTimeoutSeconds,
      tax_behavior: defaults.taxBehavior,
    };
  };
}

/**
 * `GATEWAY_A_SANDBOX_API_KEY` (one variable per gateway, environment and secret) becomes the value of the reference
 * `gateway_a_sandbox_api_key` by way of `SECRET_GATEWAY_A_SANDBOX_API_KEY`, the secret store's
 * environment convention. Only these named variables are mapped, never the whole environment.
 */
export function gatewaySecretEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const gateway of ["gateway_a", "gateway_b"] as const) {
    for (const environment of ENVIRONMENTS) {
      for (const secret of SECRETS) {
        const value = env[`${gateway}_${environment}_${secret}`.toUpperCase()];
        if (value) mapped[`SECRET_${ref(gateway, environment, secret).toUpperCase()}`] = value;
      }
    }
  }
  return mapped;
}
