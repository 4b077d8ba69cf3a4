import { Elysia } from "elysia";
import type { WebhookRequest } from "../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { readLimitedBytes } from "../../kit/body-parser.ts";
import { unparsedJsonBody } from "./openapi-models.ts";
import { GatewayAEventSchema, GatewayBEventSchema, WebhookReceiptSchema } from "./webhook-schemas.ts";

export interface WebhookDeps {
  readonly bodyLimitBytes: number;
  receiveWebhook(gateway: PaymentGatewayName, request: WebhookRequest): Promise<{ received: true; duplicate: boolean }>;
}

/** Webhook paths whose body reaches the handler as the raw bytes the signature covers. */
export const RAW_BODY_PREFIX = "/api/webhooks/";

const EVENTS = { gateway_a: GatewayAEventSchema, gateway_b: GatewayBEventSchema } as const;
const SIGNATURES = {
  gateway_a: "Paddle-Signature: ts=<unix>;h1=<hex HMAC-SHA256 of `<ts>:<raw body>`>",
  gateway_b: "Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of `<t>.<raw body>`>",
} as const;

/** One path per gateway, each to its own verifier (a secret of one gateway never verifies the other's events); answers fast, the job does the work. */
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
        // The signature covers the exact bytes: they reach the handler unparsed, read once under the limit.
        parse: ({ request }) => readLimitedBytes(request, deps.bodyLimitBytes),
        response: { 200: WebhookReceiptSchema },
        detail: {
          summary: `Incoming payment webhook of ${gateway}; verified on the raw body, stored once per event id`,
          description: `Signed with ${SIGNATURES[gateway]}; a bad signature is a 400 and nothing is stored.`,
          requestBody: unparsedJsonBody(EVENTS[gateway]),
        },
      },
    ) as unknown as typeof app;
  }
  return app;
}
