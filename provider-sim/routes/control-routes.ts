import { Elysia } from "elysia";
import type { SimClock } from "../clock.ts";
import type { FaultQueue } from "../faults.ts";
import { createGatewayControlRoutes } from "../gateways/gateway-control-routes.ts";
import type { GatewaySandboxes } from "../gateways/gateway-sandboxes.ts";
import { createMailRoutes, type MailRoutesDeps } from "../mail/mail-routes.ts";
import { assertWellFormed } from "../raw-body.ts";
import { ClockRequestSchema, FaultRequestSchema } from "../schemas.ts";
import type { TenantStore } from "../tenant-store.ts";
import { runTick } from "../tick.ts";

export interface ControlRoutesDeps extends MailRoutesDeps {
  readonly store: TenantStore;
  readonly faults: FaultQueue;
  readonly clock: SimClock;
  readonly gateways: GatewaySandboxes;
}

/** `/__sim/*`: test controls, mounted only with PROVIDER_SIM_CONTROL=true and deliberately without auth. */
export function createControlRoutes(deps: ControlRoutesDeps) {
  const now = () => deps.clock.now().toISOString();
  return new Elysia()
    .onTransform(({ body }) => assertWellFormed(body))
    .get("/__sim", () => ({ controls: true as const, now: now() }))
    .post(
      "/__sim/faults",
      ({ body, set }) => {
        deps.faults.enqueue(body);
        set.status = 201;
        return body;
      },
      { body: FaultRequestSchema },
    )
    .post(
      "/__sim/clock",
      ({ body }) => {
        deps.clock.advance(body.advance_seconds);
        runTick(deps.store, deps.clock.now());
        return { now: now() };
      },
      { body: ClockRequestSchema },
    )
    .post("/__sim/reset", () => {
      deps.store.clear();
      deps.faults.clear();
      deps.clock.reset();
      deps.gateways.clear();
      deps.mailbox.clear();
      deps.mailRefusals.clear();
      return { reset: true as const, now: now() };
    })
    .use(createGatewayControlRoutes(deps.gateways))
    .use(createMailRoutes(deps));
}
