import { Elysia, t } from "elysia";
import { HttpProblem } from "../../adapters/http/problem.ts";
import type { GatewaySandboxes } from "./gateway-sandboxes.ts";
import { SandboxError } from "./sandbox-error.ts";

interface SubscriptionControls {
  renewNow(id: string): Promise<unknown>;
  cancelNow(id: string): Promise<unknown>;
}

const SubscriptionParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });

/** Controls answer problem+json like the other `/__sim` routes, whatever the gateway's own error shape. */
async function asProblem<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new HttpProblem(error.status, (error.code ?? "gateway_error").toUpperCase(), error.message);
  }
}

/** `/__sim/gateway_*`: recurring flows on demand and the delivered events, for tests and demos. */
export function createGatewayControlRoutes(sandboxes: GatewaySandboxes) {
  const app = new Elysia().get("/__sim/gateway_events", () => ({ events: sandboxes.deliverer.recent() }));
  for (const [gateway, entry] of [
    ["gateway_a", sandboxes.gatewayA],
    ["gateway_b", sandboxes.gatewayB],
  ] as const) {
    if (!entry) continue;
    const sandbox: SubscriptionControls = entry.sandbox;
    app
      .post(`/__sim/${gateway}/subscriptions/:id/renew`, ({ params }) => asProblem(() => sandbox.renewNow(params.id)), {
        params: SubscriptionParams,
      })
      .post(
        `/__sim/${gateway}/subscriptions/:id/cancel`,
        ({ params }) => asProblem(() => sandbox.cancelNow(params.id)),
        {
          params: SubscriptionParams,
        },
      );
  }
  return app;
}
