import { Elysia, type Static, t } from "elysia";
import type { CreatedApiKey } from "../../application/identity/api-keys.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { API_KEY_SCOPES, type ApiKey, type ApiKeyRequest } from "../../domain/identity/api-key.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named, noContent, page } from "./openapi-models.ts";
import { Cursor, IdParams, ListLimit, oneOf, pageRequest, Time, Uuid } from "./shared-schemas.ts";

export interface AdminApiKeyDeps {
  readonly auth: AuthOptions;
  createApiKey(actorId: string, input: ApiKeyRequest): Promise<CreatedApiKey>;
  listApiKeys(page: PageRequest): Promise<Page<ApiKey>>;
  revokeApiKey(actorId: string, id: string): Promise<ApiKey>;
}

const Scope = oneOf(API_KEY_SCOPES);

const ApiKeySchema = named(
  "ApiKey",
  t.Object({
    id: Uuid,
    name: t.String(),
    prefix: t.String({ description: "The secret's first characters, to tell keys apart; never the secret" }),
    scopes: t.Array(Scope),
    created_by: Uuid,
    created_at: Time,
    expires_at: t.Nullable(Time),
    last_used_at: t.Nullable(Time, { description: "Noted at most once a minute per instance" }),
    revoked_at: t.Nullable(Time),
  }),
);

const CreatedApiKeySchema = named(
  "CreatedApiKey",
  t.Object({
    ...ApiKeySchema.properties,
    secret: t.String({
      description:
        "`mk_` and 43 random characters: shown this once and kept nowhere. Send it as `Authorization: Bearer mk_…`.",
    }),
  }),
);

const NewApiKeyBody = named(
  "NewApiKey",
  t.Object(
    {
      name: t.String({ maxLength: 400 }),
      scopes: t.Array(t.String({ maxLength: 64 }), { maxItems: API_KEY_SCOPES.length * 2 }),
      expires_at: t.Optional(t.Nullable(t.String({ format: "date-time" }))),
    },
    { additionalProperties: false },
  ),
);

const toBody = (key: ApiKey): Static<typeof ApiKeySchema> => ({
  ...key,
  scopes: [...key.scopes],
  created_at: key.created_at.toISOString(),
  expires_at: key.expires_at?.toISOString() ?? null,
  last_used_at: key.last_used_at?.toISOString() ?? null,
  revoked_at: key.revoked_at?.toISOString() ?? null,
});

const SCOPES_TEXT = `Scopes: ${API_KEY_SCOPES.map((scope) => `\`${scope}\``).join(", ")}. A key calls admin routes within its scopes (\`read\` for GET, \`write\` for the rest); a route outside them is \`403\` \`API_KEY_SCOPE_MISSING\` naming \`missing_scope\`. Keys, accounts' access, gateways, secrets, jobs and the audit log take a signed-in admin (\`403\` \`API_KEY_NOT_ALLOWED\`).`;

/** Keys for integrations: created with scopes, listed without their secrets, revoked at once everywhere. */
export function createAdminApiKeyRoutes(deps: AdminApiKeyDeps) {
  return new Elysia({ name: "admin-api-key-routes", tags: ["admin: API keys"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .post(
          "/api/admin/api-keys",
          async ({ body, principal, set }) => {
            const { key, secret } = await deps.createApiKey(principal.userId, body);
            set.status = 201;
            return { ...toBody(key), secret };
          },
          {
            body: NewApiKeyBody,
            response: { 201: CreatedApiKeySchema },
            detail: { summary: "Create an API key; its secret is in this answer only", description: SCOPES_TEXT },
          },
        )
        .get(
          "/api/admin/api-keys",
          async ({ query }) => {
            const { items, next_cursor } = await deps.listApiKeys(pageRequest(query));
            return { items: items.map(toBody), next_cursor };
          },
          {
            query: t.Object({ cursor: Cursor, limit: ListLimit }),
            response: { 200: page(ApiKeySchema) },
            detail: { summary: "API keys, newest first, revoked ones included; never their secrets" },
          },
        )
        .delete(
          "/api/admin/api-keys/:id",
          async ({ params, principal, set }) => {
            await deps.revokeApiKey(principal.userId, params.id);
            set.status = 204;
          },
          {
            params: IdParams,
            detail: {
              summary: "Revoke an API key",
              description:
                "Refused at once on this instance and within 5 s on every other one (at once when the change signal arrives). Revoking a revoked key again is `204` too.",
              responses: noContent("The key is revoked"),
            },
          },
        ),
    );
}
