import { connectToAnyAddress } from "../../../adapters/security/guarded-fetch.ts";
import { withOutboundGuard } from "../../../adapters/upstream/gateway-outbound.ts";
import type { GatewayRuntimeSettings, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";

/** Fixed settings per gateway, changeable between calls (to switch environments in a test). */
export function createStaticGatewaySettings(
  settings: Partial<Record<PaymentGatewayName, Partial<GatewayRuntimeSettings>>> = {},
): GatewaySettingsSource & { set(gateway: PaymentGatewayName, patch: Partial<GatewayRuntimeSettings>): void } {
  const current: Record<PaymentGatewayName, GatewayRuntimeSettings> = {
    gateway_a: {
      gateway: "gateway_a",
      environment: "sandbox",
      base_url: "https://sandbox-api.paddle.test",
      api_key: "pdl_sdbx_apikey_test_0123456789",
      client_key: "test_client_token_0123",
      webhook_secrets: ["pdl_ntfset_test_secret_0123456789"],
      webhook_tolerance_seconds: 300,
      timeout_seconds: 5,
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
      ...settings.gateway_b,
    },
  };
  // Tests reach msw hosts and local listeners by name: the guard lets everything through.
  const source = withOutboundGuard(
    {
      resolve: async (gateway) => current[gateway],
      activeEnvironment: async (gateway): Promise<GatewayEnvironment> => current[gateway].environment,
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
