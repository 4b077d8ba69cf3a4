import { Elysia, t } from "elysia";
import { asProblem, IdParams, optionalBody } from "./control-problem.ts";
import { createExchangeControlRoutes } from "./exchange-control-routes.ts";
import { createGatewayAControlRoutes } from "./gateway-a/control-routes.ts";
import { createGatewayBControlRoutes } from "./gateway-b/control-routes.ts";
import type { GatewaySandboxes } from "./gateway-sandboxes.ts";

interface SubscriptionControls {
  renewNow(id: string, fail?: boolean): Promise<unknown>;
  cancelNow(id: string): Promise<unknown>;
  armNextRenewal(id: string, outcome: "fail" | "succeed"): unknown;
}

const RenewBody = optionalBody({ fail: t.Optional(t.Boolean()) });
const NextRenewalBody = t.Object(
  { outcome: t.Union([t.Literal("fail"), t.Literal("succeed")]) },
  { additionalProperties: false },
);

/** `/__sim/gateway_*`: recurring flows, disputes and tax on demand, and the delivered events, for tests and demos. */
export function createGatewayControlRoutes(sandboxes: GatewaySandboxes) {
  const app = new Elysia()
    .get("/__sim/gateway_events", () => ({ events: sandboxes.deliverer.recent() }))
    .use(createExchangeControlRoutes(sandboxes.exchanges));
  for (const [gateway, entry] of [
    ["gateway_a", sandboxes.gatewayA],
    ["gateway_b", sandboxes.gatewayB],
  ] as const) {
    if (!entry) continue;
    const sandbox: SubscriptionControls = entry.sandbox;
    const base = `/__sim/${gateway}/subscriptions/:id`;
    app
      .post(`${base}/renew`, ({ params, body }) => asProblem(() => sandbox.renewNow(params.id, body?.fail)), {
        params: IdParams,
        body: RenewBody,
      })
      .post(`${base}/cancel`, ({ params }) => asProblem(() => sandbox.cancelNow(params.id)), { params: IdParams })
      .post(
        `${base}/next_renewal`,
        ({ params, body }) => asProblem(() => sandbox.armNextRenewal(params.id, body.outcome)),
        { params: IdParams, body: NextRenewalBody },
      );
  }
  if (sandboxes.gatewayA) app.use(createGatewayAControlRoutes(sandboxes.gatewayA.sandbox));
  if (sandboxes.gatewayB) app.use(createGatewayBControlRoutes(sandboxes.gatewayB.sandbox));
  return app;
}
