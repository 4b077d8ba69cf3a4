import { Elysia, t } from "elysia";
import { HttpProblem } from "../../kit/problem.ts";

export interface Readiness {
  readonly database: boolean;
  readonly migrations: boolean;
}

export function createHealthRoutes(deps: { readonly instanceId: string; checkReadiness(): Promise<Readiness> }) {
  const instance = deps.instanceId;
  return new Elysia({ name: "health-routes", tags: ["health"] })
    .get("/health", () => ({ status: "ok" as const, instance }), {
      response: t.Object({ status: t.Literal("ok"), instance: t.String() }),
      detail: { summary: "Liveness: the process serves HTTP" },
    })
    .get(
      "/ready",
      async () => {
        const readiness = await deps.checkReadiness();
        if (readiness.database && readiness.migrations) return { status: "ready" as const, instance, ...readiness };
        throw new HttpProblem(
          503,
          "NOT_READY",
          `Not ready: database ${readiness.database ? "up" : "down"}, migrations ${readiness.migrations ? "applied" : "pending"}.`,
        );
      },
      {
        response: {
          200: t.Object({
            status: t.Literal("ready"),
            instance: t.String(),
            database: t.Boolean(),
            migrations: t.Boolean(),
          }),
        },
        detail: { summary: "Readiness: database reachable and migrations applied (else 503 NOT_READY)" },
      },
    );
}
