import { Elysia, t } from "elysia";
import type { Logger } from "../kit/logger.ts";
import { createProblemHandler } from "../kit/problem-handler.ts";
import { createRequestContext } from "../kit/request-context.ts";
import { createProviderAuth } from "./auth.ts";
import type { SimClock } from "./clock.ts";
import type { FaultQueue } from "./faults.ts";
import { createGatewaySandboxRoutes, type GatewaySandboxes } from "./gateways/gateway-sandboxes.ts";
import type { Mailbox } from "./mail/mailbox.ts";
import type { SmtpRefusals } from "./mail/smtp-refusals.ts";
import { BODY_LIMIT_BYTES, createRawBodyParser } from "./raw-body.ts";
import { createAdminRoutes } from "./routes/admin-routes.ts";
import { createArtifactRoutes } from "./routes/artifact-routes.ts";
import { createControlRoutes } from "./routes/control-routes.ts";
import { createProvisioningRoutes } from "./routes/provisioning-routes.ts";
import { createWorkspaceRoutes } from "./routes/workspace-routes.ts";
import type { TenantStore } from "./tenant-store.ts";

export interface ProviderSimDeps {
  readonly logger: Logger;
  readonly clock: SimClock;
  readonly wallTime: () => number;
  readonly store: TenantStore;
  readonly faults: FaultQueue;
  readonly gateways: GatewaySandboxes;
  readonly mailbox: Mailbox;
  readonly mailRefusals: SmtpRefusals;
  readonly token: string;
  readonly hmacSecret: string | undefined;
  /** Mounts `/__sim/*`; without it those paths are 404 like any unknown route. */
  readonly controls: boolean;
  readonly publicUrl: string;
  /** Names this process in `/health`, so a supervisor knows it hears its own child. */
  readonly instanceId: string;
}

/** The bundled stand-in for the point-of-sale provider: the whole contract of openapi/provider.yaml. */
export function createProviderSimApp(deps: ProviderSimDeps) {
  const marketplaceApi = new Elysia()
    .use(createProviderAuth(deps))
    .use(createProvisioningRoutes(deps))
    .use(createAdminRoutes(deps));
  // normalize: false makes `additionalProperties: false` a 422 instead of silently dropping the field.
  return new Elysia({ normalize: false })
    .use(createProblemHandler(deps))
    .use(createRequestContext(deps))
    .use(createRawBodyParser(BODY_LIMIT_BYTES))
    .get("/health", () => ({ status: "ok" as const, instance: deps.instanceId }), {
      response: t.Object({ status: t.Literal("ok"), instance: t.String() }),
    })
    .use(createWorkspaceRoutes(deps))
    .use(createArtifactRoutes())
    .use(marketplaceApi)
    .use(createGatewaySandboxRoutes(deps.gateways, deps.faults))
    .use(deps.controls ? createControlRoutes(deps) : new Elysia());
}
