import { connectToAnyAddress } from "../../../adapters/security/guarded-fetch.ts";
import { withOutboundGuard } from "../../../adapters/upstream/gateway-outbound.ts";
import type { GatewayRuntimeSettings, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";

/** The active environment's settings, and the webhook secrets it is signed with. */
type FakeSettings = GatewayRuntimeSettings & { readonly webhook_secrets: readonly string[] };

/** Fixed settings per gateway, changeable between calls (to switch environments in a test). */
export function createStaticGatewaySettings(
  settings: Partial<Record<PaymentGatewayName, Partial<FakeSettings>>> = {},
): GatewaySettingsSource & { set(gateway: PaymentGatewayName, patch: Partial<FakeSettings>): void } {
  const current: Record<PaymentGatewayName, FakeSettings> = {
    gateway_a: {
      gateway: "gateway_a",
      environment: "sandbox",
      base_url: "https://sandbox-api.paddle.test",
      api_key: "pdl_sdbx_apikey_test_0123456789",
      client_key: "test_client_token_0123",
      webhook_secrets: ["pdl_ntfset_test_secret_0123456789"],
      webhook_tolerance_seconds: 300,
      timeout_seconds: 5,
      tax_behavior: "exclusive",
      ...settings.gateway_a,
    },
    gateway_b: {
      gateway: "gateway_b",
      environment: "sandbox",
      base_url: "https://api.stripe.test",
      api_key: "sk_test_0123456789abcdefghij",
      client_key: "pk_test_0123456789abcdefghij",
      webhook_secrets: ["whsec_test_0123456789abcdefghij"],
      webhook_tolerance_seconds: 300,
      timeout_seconds: 5,
      tax_behavior: "exclusive",
      ...settings.gateway_b,
    },
  };
  // Tests reach msw hosts and local listeners by name: the guard lets everything through.
  const source = withOutboundGuard(
    {
      resolve: async (gateway) => current[gateway],
      activeEnvironment: async (gateway): Promise<GatewayEnvironment> => current[gateway].environment,
      taxBehavior: async (gateway) => current[gateway].tax_behavior,
      // The active environment's secrets only: tests of other environments set them per environment.
      webhookSecrets: async (gateway) => [
        {
          environment: current[gateway].environment,
          secrets: current[gateway].webhook_secrets,
          tolerance_seconds: current[gateway].webhook_tolerance_seconds,
        },
      ],
    },
    connectToAnyAddress,
  );
  return {
    ...source,
    set(gateway, patch) {
      current[gateway] = { ...current[gateway], ...patch };
    },
  };
}
