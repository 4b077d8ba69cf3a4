import type { GatewayBreakerView } from "../../application/payments/gateway-breaker-ports.ts";
import type { WebhookRequest } from "../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { createMarketplaceMetrics } from "../metrics/marketplace-metrics.ts";
import { readQueueFigures } from "../postgres/queue-figures.ts";
import type { Platform } from "./platform.ts";

type ReceiveWebhook = (
  gateway: PaymentGatewayName,
  request: WebhookRequest,
) => Promise<{ received: true; duplicate: boolean }>;

/** The metrics registry, reading the queues from this marketplace's database, and the gateways' breakers. */
export function wireMetrics(
  { sql, config }: Platform,
  deps: { readonly listGatewayBreakers: () => Promise<readonly GatewayBreakerView[]> },
) {
  const metrics = createMarketplaceMetrics({
    readFigures: () => readQueueFigures(sql),
    readBreakers: deps.listGatewayBreakers,
  });
  return {
    metrics,
    metricsToken: config.metrics.token,
    /** Counts each incoming webhook by how it ended: received, duplicate, or the refusal's code. */
    countingWebhooks(receive: ReceiveWebhook): ReceiveWebhook {
      return async (gateway, request) => {
        try {
          const receipt = await receive(gateway, request);
          metrics.countWebhook(gateway, receipt.duplicate ? "duplicate" : "received");
          return receipt;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          metrics.countWebhook(gateway, typeof code === "string" ? code.toLowerCase() : "error");
          throw error;
        }
      };
    },
  };
}
