import { Elysia, t } from "elysia";

/** The bundled stand-in for the point-of-sale provider; grows the full contract of openapi/provider.yaml. */
export function createProviderSimApp() {
  return new Elysia({ name: "provider-sim" }).get("/health", () => ({ status: "ok" as const }), {
    response: t.Object({ status: t.Literal("ok") }),
  });
}
