import type { GatewaySettingsSource, WebhookSecrets } from "../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { InvalidWebhookSignature } from "../../domain/payments/errors.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";

/**
 * Which environment signed a webhook: each configured environment's secrets are tried, the active
 * one first. The refusal names the active environment's reason (the one an operator looks at).
 */
export async function signingEnvironment(
  source: GatewaySettingsSource,
  gateway: PaymentGatewayName,
  verify: (environment: WebhookSecrets) => Promise<void>,
): Promise<{ environment: GatewayEnvironment }> {
  const environments = await source.webhookSecrets(gateway);
  let first: unknown;
  for (const environment of environments) {
    try {
      await verify(environment);
      return { environment: environment.environment };
    } catch (error) {
      if (!(error instanceof InvalidWebhookSignature)) throw error;
      first ??= error;
    }
  }
  throw first ?? new InvalidWebhookSignature("no webhook secret is configured");
}
