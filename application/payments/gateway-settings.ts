import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { GatewayHostPolicy } from "../../domain/payments/gateway-hosts.ts";
import type { TaxBehavior } from "../../domain/payments/payment.ts";
import { canonicalSecretRef } from "../../domain/secrets/secret-purpose.ts";
import type { FieldError } from "../../domain/shared/domain-error.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { isHttpUrl } from "../../domain/shared/http-url.ts";
import { redactSummary } from "../audit/ports.ts";
import { newDestinations, recordNewDestinations, type SecretStore, type SecretUseLog } from "../secrets/ports.ts";
import { assertOutboundUrls, type OutboundUrlPolicy, type UrlField } from "../shared/outbound-urls.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import {
  type EnvironmentSettings,
  GATEWAY_SETTINGS_TOPIC,
  type GatewaySettings,
  type GatewaySettingsRepository,
} from "./gateway-settings-ports.ts";
import { apiKeyDestinations, assertGatewayHosts, gatewaySecretUses } from "./gateway-settings-secrets.ts";
import type { ConnectionReport, PaymentGateway } from "./ports.ts";

type Secrets = "api_key" | "client_key" | "webhook_secret" | "previous_webhook_secret";
export type EnvironmentPatch = Partial<EnvironmentSettings> & Partial<Record<Secrets, string>>;

export interface SettingsPatch {
  readonly environment?: GatewayEnvironment;
  readonly sandbox?: EnvironmentPatch;
  readonly live?: EnvironmentPatch;
  readonly webhook_tolerance_seconds?: number;
  readonly timeout_seconds?: number;
  readonly tax_behavior?: TaxBehavior;
}

const REF = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const SECRET_REF_FIELD: Record<Secrets, keyof EnvironmentSettings> = {
  api_key: "api_key_ref",
  client_key: "client_key_ref",
  webhook_secret: "webhook_secret_ref",
  previous_webhook_secret: "previous_webhook_secret_ref",
};

function check(environment: GatewayEnvironment, settings: EnvironmentSettings, errors: FieldError[]) {
  if (!isHttpUrl(settings.base_url)) {
    errors.push({
      path: `/${environment}/base_url`,
      code: "INVALID_URL",
      message: "must be an absolute http(s) URL without credentials",
    });
  }
  for (const field of ["api_key_ref", "client_key_ref", "webhook_secret_ref", "previous_webhook_secret_ref"] as const) {
    const ref = settings[field];
    if (ref !== null && !REF.test(ref)) {
      errors.push({
        path: `/${environment}/${field}`,
        code: "INVALID_REFERENCE",
        message: "must be a secret reference name",
      });
    }
  }
}

export function makeGatewaySettingsAdmin(deps: {
  repository: GatewaySettingsRepository;
  secrets: SecretStore;
  changes: ChangeSignal;
  gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  urls: OutboundUrlPolicy;
  hosts: GatewayHostPolicy;
  uses: SecretUseLog;
}) {
  /** What an admin sees: references and whether each resolves, never a value. */
  async function describe(gateway: PaymentGatewayName) {
    const settings = await deps.repository.get(gateway);
    const view = async (env: EnvironmentSettings) => {
      const configured = async (ref: string | null) => (ref === null ? false : deps.secrets.has(ref));
      return {
        ...env,
        api_key_configured: await configured(env.api_key_ref),
        client_key_configured: await configured(env.client_key_ref),
        webhook_secret_configured: await configured(env.webhook_secret_ref),
      };
    };
    return { ...settings, sandbox: await view(settings.sandbox), live: await view(settings.live) };
  }

  return {
    describe,

    /**
     * Secret values in the patch go to the secret store; the settings and their audit entry (the
     * patch, secret values redacted) are saved together. Every reference must be for its field's
     * purpose, and an API key set to go to a new address is audited and told to operations first.
     */
    async update(gateway: PaymentGatewayName, patch: SettingsPatch, actorId: string) {
      const current = await deps.repository.get(gateway);
      const merge = (env: EnvironmentSettings, change: EnvironmentPatch | undefined): EnvironmentSettings => {
        const { api_key: _a, client_key: _c, webhook_secret: _w, previous_webhook_secret: _p, ...refs } = change ?? {};
        return { ...env, ...refs };
      };
      const next: GatewaySettings = {
        ...current,
        ...(patch.environment ? { environment: patch.environment } : {}),
        ...(patch.webhook_tolerance_seconds !== undefined
          ? { webhook_tolerance_seconds: patch.webhook_tolerance_seconds }
          : {}),
        ...(patch.timeout_seconds !== undefined ? { timeout_seconds: patch.timeout_seconds } : {}),
        ...(patch.tax_behavior ? { tax_behavior: patch.tax_behavior } : {}),
        sandbox: merge(current.sandbox, patch.sandbox),
        live: merge(current.live, patch.live),
      };
      const errors: FieldError[] = [];
      check("sandbox", next.sandbox, errors);
      check("live", next.live, errors);
      for (const environment of ["sandbox", "live"] as const) {
        for (const secret of Object.keys(SECRET_REF_FIELD) as Secrets[]) {
          if (patch[environment]?.[secret] !== undefined && next[environment][SECRET_REF_FIELD[secret]] === null) {
            errors.push({
              path: `/${environment}/${secret}`,
              code: "NO_REFERENCE",
              message: `set ${SECRET_REF_FIELD[secret]} first`,
            });
          }
        }
      }
      if (errors.length > 0) throw new ValidationFailed(errors, "The gateway settings are not valid.");
      const changedUrls: UrlField[] = [];
      for (const environment of ["sandbox", "live"] as const) {
        const url = patch[environment]?.base_url;
        if (url !== undefined) changedUrls.push({ path: `/${environment}/base_url`, url });
      }
      await assertOutboundUrls(deps.urls, changedUrls);
      assertGatewayHosts(deps.hosts, gateway, next);
      await deps.secrets.claim(gatewaySecretUses(next));
      // Audited and told before anything is stored: a failure leaves the change unmade, never unaudited.
      const before = apiKeyDestinations(current);
      await recordNewDestinations(deps.uses, {
        actorId,
        via: `${gateway} settings`,
        previous: (ref) => before.find((d) => d.ref === ref)?.address ?? null,
        destinations: newDestinations(before, apiKeyDestinations(next)),
      });
      for (const environment of ["sandbox", "live"] as const) {
        for (const secret of Object.keys(SECRET_REF_FIELD) as Secrets[]) {
          const value = patch[environment]?.[secret];
          const ref = next[environment][SECRET_REF_FIELD[secret]];
          // Each secret is stored with its own audit entry, in its own transaction.
          if (value !== undefined && ref !== null) {
            // The reference was claimed for this field's purpose above; the value keeps it.
            await deps.secrets.put(ref, value, undefined, {
              actor_id: actorId,
              action: "secret.set",
              target_type: "secret",
              target_id: canonicalSecretRef(ref),
              summary: { ref: canonicalSecretRef(ref), value_set: true, via: `${gateway} ${environment} settings` },
            });
          }
        }
      }
      await deps.repository.save(next, {
        actor_id: actorId,
        action: "gateway_settings.update",
        target_type: "gateway_settings",
        target_id: gateway,
        summary: redactSummary({ ...patch }),
      });
      await deps.changes.publish(GATEWAY_SETTINGS_TOPIC);
      return describe(gateway);
    },

    /**
     * Audited like a change, before anything is sent. The active environment's address is checked,
     * and its keys must be for it, before anything connects to it.
     */
    async testConnection(gateway: PaymentGatewayName, actorId: string): Promise<ConnectionReport> {
      const settings = await deps.repository.get(gateway);
      const environment = settings.environment;
      const { base_url, api_key_ref } = settings[environment];
      await assertOutboundUrls(deps.urls, [{ path: `/${environment}/base_url`, url: base_url }]);
      assertGatewayHosts(deps.hosts, gateway, settings, [environment]);
      await deps.secrets.claim(gatewaySecretUses(settings, [environment]));
      await deps.uses.record(
        [
          {
            actor_id: actorId,
            action: "gateway.test_connection",
            target_type: "gateway_settings",
            target_id: gateway,
            summary: { environment, base_url, api_key_ref: canonicalSecretRef(api_key_ref) },
          },
        ],
        [],
      );
      return deps.gateways[gateway].testConnection();
    },
  };
}
