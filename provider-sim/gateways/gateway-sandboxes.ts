import { Elysia } from "elysia";
import type { Logger } from "../../kit/logger.ts";
import type { SimClock } from "../clock.ts";
import type { FaultQueue } from "../faults.ts";
import { createCheckoutRoutes } from "./checkout-routes.ts";
import { createDocumentRoutes } from "./document-routes.ts";
import {
  createExchangeRecorder,
  type ExchangeRecorder,
  recordingWebhooks,
  recordSandboxCalls,
} from "./exchange-recorder.ts";
import { createGatewayARoutes } from "./gateway-a/routes.ts";
import { createGatewayASandbox, type GatewayASandbox } from "./gateway-a/sandbox.ts";
import { createGatewayBRoutes } from "./gateway-b/routes.ts";
import { createGatewayBSandbox, type GatewayBSandbox } from "./gateway-b/sandbox.ts";
import { createPortalRoutes } from "./portal-routes.ts";
import { createWebhookDeliverer, type GatewayName, type WebhookDeliverer } from "./webhook-deliverer.ts";

/** A sandbox is mounted only with both its API key and its webhook secret. */
export interface GatewaySandboxSettings {
  readonly apiKey: string;
  readonly webhookSecret: string;
}

export interface GatewaySandboxes {
  readonly deliverer: WebhookDeliverer;
  /** Every call and webhook while recording is on (`/__sim/gateway_exchanges`). */
  readonly exchanges: ExchangeRecorder;
  readonly gatewayA: { readonly sandbox: GatewayASandbox; readonly apiKey: string } | undefined;
  readonly gatewayB: { readonly sandbox: GatewayBSandbox; readonly apiKey: string } | undefined;
  readonly mounted: readonly GatewayName[];
  /** Ends every subscription period the simulated clock has passed; returns how many ended. */
  billDue(): number;
  /** Forgets every sandbox object and delivery (`POST /__sim/reset`). */
  clear(): void;
}

/**
 * `clock` whose moves (`POST /__sim/clock`) also end the sandbox subscription periods they pass, as
 * the gateways bill on their own schedule: renewals, armed failures and scheduled cancellations.
 */
export function withGatewayBilling(clock: SimClock, sandboxes: Pick<GatewaySandboxes, "billDue">): SimClock {
  return {
    now: () => clock.now(),
    reset: () => clock.reset(),
    advance(seconds) {
      const at = clock.advance(seconds);
      sandboxes.billDue();
      return at;
    },
  };
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
  const exchanges = createExchangeRecorder();
  const deliverer = createWebhookDeliverer({
    logger: deps.logger,
    marketplaceUrl: deps.marketplaceUrl,
    wallTime: deps.wallTime,
    ...(deps.webhookRetryDelayMs === undefined ? {} : { retryDelayMs: deps.webhookRetryDelayMs }),
  });
  const shared = { clock: deps.clock, deliverer: recordingWebhooks(deliverer, exchanges), publicUrl: deps.publicUrl };
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
    exchanges,
    gatewayA,
    gatewayB,
    mounted: [...(gatewayA ? ["gateway_a" as const] : []), ...(gatewayB ? ["gateway_b" as const] : [])],
    billDue: () => (gatewayA?.sandbox.billDue() ?? 0) + (gatewayB?.sandbox.billDue() ?? 0),
    clear() {
      gatewayA?.sandbox.clear();
      gatewayB?.sandbox.clear();
      deliverer.clear();
      exchanges.clear();
    },
  };
}

/**
 * The APIs and hosted checkout pages of the configured sandboxes; the others' paths stay 404.
 * `faults` (`/__sim/faults`) can take the place of the calls that open a checkout.
 */
export function createGatewaySandboxRoutes(sandboxes: GatewaySandboxes, faults: FaultQueue) {
  const { gatewayA, gatewayB } = sandboxes;
  const app = new Elysia().onAfterHandle(recordSandboxCalls(sandboxes.exchanges));
  if (gatewayA) {
    app
      .use(createGatewayARoutes(gatewayA.sandbox, gatewayA.apiKey, faults))
      .use(createCheckoutRoutes(gatewayA.sandbox.checkout))
      .use(createDocumentRoutes(gatewayA.sandbox.invoices.documents))
      .use(createPortalRoutes(gatewayA.sandbox.portal.portal, "gateway_a"));
  }
  if (gatewayB) {
    app
      .use(createGatewayBRoutes(gatewayB.sandbox, gatewayB.apiKey, faults))
      .use(createCheckoutRoutes(gatewayB.sandbox.checkout))
      .use(createDocumentRoutes(gatewayB.sandbox.documents))
      .use(createPortalRoutes(gatewayB.sandbox.portal.portal, "gateway_b"));
  }
  return app;
}
