import { Elysia, t } from "elysia";
import type { SecretListing } from "../../application/secrets/ports.ts";
import { PAYMENT_GATEWAYS } from "../../domain/catalog/product.ts";
import {
  purposeFromFields,
  purposeToFields,
  SECRET_PURPOSE_KINDS,
  type SecretPurpose,
} from "../../domain/secrets/secret-purpose.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named, noContent, page } from "./openapi-models.ts";
import { oneOf } from "./shared-schemas.ts";

export interface AdminSecretDeps {
  readonly auth: AuthOptions;
  putSecret(ref: string, value: string, purpose: SecretPurpose | undefined, actorId: string): Promise<void>;
  listSecrets(): Promise<SecretListing[]>;
}

const SecretListingSchema = named(
  "SecretListing",
  t.Object({
    ref: t.String(),
    source: oneOf(["stored", "environment"]),
    updated_at: t.Nullable(t.String({ format: "date-time", description: "Stored secrets only" })),
    purpose: t.Nullable(oneOf(SECRET_PURPOSE_KINDS)),
    gateway: t.Nullable(oneOf(PAYMENT_GATEWAYS)),
    environment: t.Nullable(oneOf(["sandbox", "live"])),
  }),
);

const SecretBody = t.Object(
  {
    value: t.String({ minLength: 1, maxLength: 8192 }),
    purpose: t.Optional(oneOf(SECRET_PURPOSE_KINDS)),
    gateway: t.Optional(oneOf(PAYMENT_GATEWAYS)),
    environment: t.Optional(oneOf(["sandbox", "live"])),
  },
  { additionalProperties: false },
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
            await deps.putSecret(params.ref, body.value, purposeFromFields(body), principal.userId);
            set.status = 204;
          },
          {
            params: t.Object({ ref: t.String({ pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,63}$" }) }),
            body: SecretBody,
            detail: {
              summary:
                "Store a secret encrypted under a reference, for one purpose (a gateway_* purpose also names gateway and environment; unset keeps the purpose it had); the value is never returned and only ever used for its purpose",
              responses: noContent("Stored"),
            },
          },
        )
        .get(
          "/api/admin/secrets",
          async () => ({
            items: (await deps.listSecrets()).map(({ purpose, ...listing }) => ({
              ...listing,
              ...purposeToFields(purpose),
            })),
            next_cursor: null,
          }),
          {
            response: { 200: page(SecretListingSchema) },
            detail: {
              summary:
                "Secret references, where each comes from and what it is for (null until declared or first used); never the values",
            },
          },
        ),
    );
}
