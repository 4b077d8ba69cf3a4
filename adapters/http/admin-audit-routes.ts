import { Elysia, type Static, t } from "elysia";
import type { AuditFilter, AuditRecord } from "../../application/audit/ports.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named, page } from "./openapi-models.ts";
import { Cursor, ListLimit, pageRequest, Time, Uuid } from "./shared-schemas.ts";

export interface AdminAuditDeps {
  readonly auth: AuthOptions;
  listAuditLog(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>>;
}

/** `<resource>.<verb>`, as every action is named. */
const ActionName = t.String({ pattern: "^[a-z][a-z_]*\\.[a-z][a-z_]*$", maxLength: 100 });

export const AuditRecordSchema = named(
  "AuditRecord",
  t.Object({
    id: t.String({ pattern: "^[0-9]+$", description: "An entry's id is a number, written as a string" }),
    actor_id: Uuid,
    actor_kind: t.Union([t.Literal("user"), t.Literal("api_key")], {
      description: "An account, or an API key (`actor_id` is then the key's id)",
    }),
    actor_name: t.Nullable(t.String({ description: "An API key's name when it acted" })),
    action: t.String({ description: "`<resource>.<verb>`, such as `order.refund` or `secret.set`" }),
    target_type: t.String(),
    target_id: t.String(),
    at: Time,
    summary: t.Record(t.String(), t.Unknown(), { description: "What changed; secret values read `[redacted]`" }),
  }),
);

const toAuditRecordBody = (record: AuditRecord): Static<typeof AuditRecordSchema> => ({
  ...record,
  at: record.at.toISOString(),
  summary: { ...record.summary },
});

/** Who changed what: the admin actions that changed state, each written with its change. */
export function createAdminAuditRoutes(deps: AdminAuditDeps) {
  return new Elysia({ name: "admin-audit-routes", tags: ["admin: audit"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app.get(
        "/api/admin/audit-log",
        async ({ query }) => {
          const { cursor, limit, ...filter } = query;
          const found = await deps.listAuditLog(filter, pageRequest({ cursor, limit }));
          return { items: found.items.map(toAuditRecordBody), next_cursor: found.next_cursor };
        },
        {
          query: t.Object({
            actor_id: t.Optional(Uuid),
            target_id: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
            action: t.Optional(ActionName),
            cursor: Cursor,
            limit: ListLimit,
          }),
          response: { 200: page(AuditRecordSchema) },
          detail: { summary: "Admin actions that changed state, newest first, by actor, target and action" },
        },
      ),
    );
}
