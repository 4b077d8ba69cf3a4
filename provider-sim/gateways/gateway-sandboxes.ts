import { Elysia } from "elysia";
import type { Logger } from "../../adapters/logging/logger.ts";
import type { SimClock } from "../clock.ts";
import { createCheckoutRoutes } from "./checkout-routes.ts";
import { createGatewayARoutes } from "./gateway-a/routes.ts";
import { createGatewayASandbox, type GatewayASandbox } from "./gateway-a/sandbox.ts";
import { createGatewayBRoutes } from "./gateway-b/routes.ts";
import { createGatewayBSandbox, type GatewayBSandbox } from "./gateway-b/sandbox.ts";
import { createWebhookDeliverer, type GatewayName, type WebhookDeliverer } from "./webhook-deliverer.ts";

/** A sandbox is mounted only with both its API key and its webhook secret. */
export interface GatewaySandboxSettings {
  readonly apiKey: string;
  readonly webhookSecret: string;
}

export interface GatewaySandboxes {
  readonly deliverer: WebhookDeliverer;
  readonly gatewayA: { readonly sandbox: GatewayASandbox; readonly apiKey: string } | undefined;
  readonly gatewayB: { readonly sandbox: GatewayBSandbox; readonly apiKey: string } | undefined;
  readonly mounted: readonly GatewayName[];
  /** Forgets every sandbox object and delivery (`POST /__sim/reset`). */
  clear(): void;
}

export function createGatewaySandboxes(deps: {
  readonly logger: Logger;
  readonly clock: SimClock;
  readonly wallTime: () => number;
  readonly publicUrl: string;
  readonly marketplaceUrl: string;
  readonly gatewayA: GatewaySandboxSettings | undefined;
  readonly gatewayB: GatewaySandboxSettings | undefined;
  readonly webhookRetryDelayMs?: number;
}): GatewaySandboxes {
  const deliverer = createWebhookDeliverer({
    logger: deps.logger,
    marketplaceUrl: deps.marketplaceUrl,
    wallTime: deps.wallTime,
    ...(deps.webhookRetryDelayMs === undefined ? {} : { retryDelayMs: deps.webhookRetryDelayMs }),
  });
  const shared = { clock: deps.clock, deliverer, publicUrl: deps.publicUrl };
  const gatewayA = deps.gatewayA && {
    sandbox: createGatewayASandbox({ ...shared, webhookSecret: deps.gatewayA.webhookSecret }),
    apiKey: deps.gatewayA.apiKey,
  };
  const gatewayB = deps.gatewayB && {
    sandbox: createGatewayBSandbox({ ...shared, webhookSecret: deps.gatewayB.webhookSecret }),
    apiKey: deps.gatewayB.apiKey,
  };
  return {
    deliverer,
    gatewayA,
    gatewayB,
    mounted: [...(gatewayA ? ["gateway_a" as const] : []), ...(gatewayB ? ["gateway_b" as const] : [])],
    clear() {
      gatewayA?.sandbox.clear();
      gatewayB?.sandbox.clear();
      deliverer.clear();
    },
  };
}

/** The APIs and hosted checkout pages of the configured sandboxes; the others' paths stay 404. */
export function createGatewaySandboxRoutes(sandboxes: GatewaySandboxes) {
  const { gatewayA, gatewayB } = sandboxes;
  const app = new Elysia();
  if (gatewayA) {
    app
      .use(createGatewayARoutes(gatewayA.sandbox, gatewayA.apiKey))
      .use(createCheckoutRoutes(gatewayA.sandbox.checkout));
  }
  if (gatewayB) {
    app
      .use(createGatewayBRoutes(gatewayB.sandbox, gatewayB.apiKey))
      .use(createCheckoutRoutes(gatewayB.sandbox.checkout));
  }
  return app;
}
