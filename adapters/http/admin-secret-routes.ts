import { Elysia, t } from "elysia";
import type { SecretListing } from "../../application/secrets/ports.ts";
import { named, noContent, page } from "./api-model.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { oneOf } from "./shared-schemas.ts";

export interface AdminSecretDeps {
  readonly auth: AuthOptions;
  putSecret(ref: string, value: string, actorId: string): Promise<void>;
  listSecrets(): Promise<SecretListing[]>;
}

const SecretListingSchema = named(
  "SecretListing",
  t.Object({
    ref: t.String(),
    source: oneOf(["stored", "environment"]),
    updated_at: t.Nullable(t.String({ format: "date-time", description: "Stored secrets only" })),
  }),
);

/** Write-only secrets: values go in and are never read back out. */
export function createAdminSecretRoutes(deps: AdminSecretDeps) {
  return new Elysia({ name: "admin-secret-routes", tags: ["admin: secrets"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .put(
          "/api/admin/secrets/:ref",
          async ({ params, body, set, principal }) => {
            await deps.putSecret(params.ref, body.value, principal.userId);
            set.status = 204;
          },
          {
            params: t.Object({ ref: t.String({ pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,63}$" }) }),
            body: t.Object({ value: t.String({ minLength: 1, maxLength: 8192 }) }, { additionalProperties: false }),
            detail: {
              summary: "Store a secret encrypted under a reference; the value is never returned",
              responses: noContent("Stored"),
            },
          },
        )
        .get("/api/admin/secrets", async () => ({ items: await deps.listSecrets(), next_cursor: null }), {
          response: { 200: page(SecretListingSchema) },
          detail: { summary: "Secret references and where each comes from; never the values" },
        }),
    );
}
