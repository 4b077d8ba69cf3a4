import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { GatewayHostNotAllowed } from "../../domain/payments/errors.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import { type GatewayHostPolicy, gatewayHostRefusal } from "../../domain/payments/gateway-hosts.ts";
import {
  canonicalSecretRef,
  type GatewaySecretKind,
  gatewayPurpose,
  type SecretUse,
} from "../../domain/secrets/secret-purpose.ts";
import type { SecretDestination } from "../secrets/ports.ts";
import type { EnvironmentSettings, GatewaySettings } from "./gateway-settings-ports.ts";

const ENVIRONMENTS = ["sandbox", "live"] as const;

/** What each reference field of an environment holds. */
const REF_KINDS: Readonly<Record<Exclude<keyof EnvironmentSettings, "base_url">, GatewaySecretKind>> = {
  api_key_ref: "gateway_api_key",
  client_key_ref: "gateway_client_key",
  webhook_secret_ref: "gateway_webhook_secret",
  previous_webhook_secret_ref: "gateway_webhook_secret",
};

/** Every reference the settings name, each with the purpose its field gives it. */
export function gatewaySecretUses(
  settings: GatewaySettings,
  environments: readonly GatewayEnvironment[] = ENVIRONMENTS,
): SecretUse[] {
  return environments.flatMap((environment) =>
    Object.entries(REF_KINDS).flatMap(([field, kind]) => {
      const ref = settings[environment][field as keyof typeof REF_KINDS];
      return ref === null
        ? []
        : [{ path: `/${environment}/${field}`, ref, purpose: gatewayPurpose(kind, settings.gateway, environment) }];
    }),
  );
}

/** Where each environment's API key goes: its base URL (client keys go to browsers, webhook secrets nowhere). */
export function apiKeyDestinations(settings: GatewaySettings): SecretDestination[] {
  return ENVIRONMENTS.map((environment) => ({
    ref: canonicalSecretRef(settings[environment].api_key_ref),
    purpose: gatewayPurpose("gateway_api_key", settings.gateway, environment),
    address: settings[environment].base_url,
  }));
}

/** Refuses (422 `GATEWAY_HOST_NOT_ALLOWED`) a live address in production that is not the gateway's own host. */
export function assertGatewayHosts(
  policy: GatewayHostPolicy,
  gateway: PaymentGatewayName,
  settings: GatewaySettings,
  environments: readonly GatewayEnvironment[] = ENVIRONMENTS,
): void {
  for (const environment of environments) {
    const refusal = gatewayHostRefusal(policy, gateway, environment, settings[environment].base_url);
    if (refusal) throw new GatewayHostNotAllowed(`/${environment}/base_url`, refusal);
  }
}
