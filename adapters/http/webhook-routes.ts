import { Elysia, t } from "elysia";
import type { WebhookRequest } from "../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { documentedJson } from "./catalog-schemas.ts";

export interface WebhookDeps {
  receiveWebhook(gateway: PaymentGatewayName, request: WebhookRequest): Promise<{ received: true; duplicate: boolean }>;
}

/** Webhook paths whose body reaches the handler as the raw bytes the signature covers. */
export const RAW_BODY_PREFIX = "/api/webhooks/";

/** One path per gateway, each to its own verifier (spec 4.1 rule 3); answers fast, the job does the work. */
export function createWebhookRoutes(deps: WebhookDeps) {
  let app = new Elysia({ name: "webhook-routes", tags: ["webhooks"] });
  for (const gateway of ["gateway_a", "gateway_b"] as const) {
    app = app.post(
      `${RAW_BODY_PREFIX}${gateway}`,
      ({ body, request }) =>
        deps.receiveWebhook(gateway, {
          rawBody: body instanceof Uint8Array ? body : new Uint8Array(),
          headers: Object.fromEntries(request.headers),
        }),
      {
        detail: {
          summary: `Incoming payment webhook of ${gateway}; verified on the raw body, stored once per event id`,
          responses: documentedJson(
            "Received (a repeat of an event too)",
            t.Object({ received: t.Literal(true), duplicate: t.Boolean() }),
          ),
        },
      },
    ) as unknown as typeof app;
  }
  return app;
}
