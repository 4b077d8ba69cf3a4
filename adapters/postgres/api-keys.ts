import type { ApiKeys } from "../../application/identity/ports.ts";
import type { ApiKey } from "../../domain/identity/api-key.ts";
import { isUuid } from "../shared/ids.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import { columnList } from "./column-list.ts";
import type { Sql } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

const COLUMNS = [
  "id",
  "name",
  "prefix",
  "scopes",
  "created_by",
  "created_at",
  "expires_at",
  "last_used_at",
  "revoked_at",
];

export function createPostgresApiKeys(sql: Sql): ApiKeys {
  return {
    create: (key, audit) =>
      sql.begin(async (tx) => {
        const [created] = await tx<ApiKey[]>`
          insert into api_keys (name, prefix, secret_hash, scopes, created_by, expires_at)
          values (${key.name}, ${key.prefix}, ${key.secretHash}, ${tx.array([...key.scopes])}, ${key.createdBy},
                  ${key.expiresAt})
          returning ${columnList(tx, COLUMNS)}`;
        if (!created) throw new Error("the API key insert returned no row");
        await createPostgresAuditLogWriter(tx).record(audit(created));
        return created;
      }),

    async list(page) {
      const keyset = newestFirst<ApiKey>(sql, page);
      const rows = await sql<ApiKey[]>`
        select ${columnList(sql, COLUMNS)} from api_keys where true ${keyset.after} ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },

    async revoke(id, at, audit) {
      if (!isUuid(id)) return undefined;
      return sql.begin(async (tx) => {
        const [current] = await tx<{ revoked_at: Date | null }[]>`
          select revoked_at from api_keys where id = ${id} for update`;
        if (!current) return undefined;
        const [revoked] = await tx<ApiKey[]>`
          update api_keys set revoked_at = coalesce(revoked_at, ${at}) where id = ${id}
          returning ${columnList(tx, COLUMNS)}`;
        // Revoking a revoked key again changes nothing, and is not written down twice.
        if (current.revoked_at === null) await createPostgresAuditLogWriter(tx).record(audit);
        return revoked;
      });
    },

    async findBySecretHash(secretHash) {
      const [key] = await sql<ApiKey[]>`
        select ${columnList(sql, COLUMNS)} from api_keys where secret_hash = ${secretHash}`;
      return key;
    },

    async touch(id, at) {
      await sql`update api_keys set last_used_at = ${at} where id = ${id} and revoked_at is null`;
    },
  };
}
