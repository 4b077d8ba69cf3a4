import type { NewUser, StoredUser, UserRepository } from "../../application/identity/ports.ts";
import type { Account } from "../../domain/identity/account.ts";
import type { Role } from "../../domain/identity/user.ts";
import { isUuid } from "../shared/ids.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import { columnList } from "./column-list.ts";
import type { Sql } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  guest: boolean;
  token_version: number;
  kept_session_id: string | null;
  kept_session_version: number | null;
  email_verified_at: Date | null;
  disabled_at: Date | null;
  created_at: Date;
}

export const USER_COLUMNS = [
  "id",
  "email",
  "name",
  "role",
  "password_hash",
  "guest",
  "token_version",
  "kept_session_id",
  "kept_session_version",
  "email_verified_at",
  "disabled_at",
  "created_at",
];

export const toAccount = (row: UserRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  emailVerified: row.email_verified_at !== null,
  guest: row.guest,
  createdAt: row.created_at,
  disabled: row.disabled_at !== null,
  tokenVersion: row.token_version,
  ...(row.kept_session_id !== null && row.kept_session_version !== null
    ? { keptSession: { id: row.kept_session_id, version: row.kept_session_version } }
    : {}),
});

/** Only accounts are looked up by address, and every account has a password. */
const toStoredUser = (row: UserRow): StoredUser => ({ ...toAccount(row), passwordHash: row.password_hash ?? "" });

export function createPostgresUserRepository(sql: Sql): UserRepository {
  return {
    async findByEmail(email) {
      const [row] = await sql<
        UserRow[]
      >`select ${columnList(sql, USER_COLUMNS)} from users where lower(email) = lower(${email}) and not guest`;
      return row ? toStoredUser(row) : undefined;
    },

    async findById(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<UserRow[]>`select ${columnList(sql, USER_COLUMNS)} from users where id = ${id}`;
      return row ? toAccount(row) : undefined;
    },

    async insert(user: NewUser) {
      const [row] = await sql<UserRow[]>`
        insert into users (email, name, role, password_hash)
        values (${user.email}, ${user.name}, ${user.role}, ${user.passwordHash})
        on conflict (lower(email)) where not guest do nothing
        returning ${columnList(sql, USER_COLUMNS)}`;
      return row ? toAccount(row) : undefined;
    },

    async upsert(user: NewUser) {
      const [row] = await sql<UserRow[]>`
        insert into users (email, name, role, password_hash, email_verified_at)
        values (${user.email}, ${user.name}, ${user.role}, ${user.passwordHash}, now())
        on conflict (lower(email)) where not guest do update
          set name = excluded.name, role = excluded.role, password_hash = excluded.password_hash,
              email_verified_at = coalesce(users.email_verified_at, now()), disabled_at = null, updated_at = now()
        returning ${columnList(sql, USER_COLUMNS)}`;
      if (!row) throw new Error("upsert returned no row");
      return toAccount(row);
    },

    async list(page) {
      const keyset = newestFirst<UserRow>(sql, page);
      const rows = await sql<UserRow[]>`
        select ${columnList(sql, USER_COLUMNS)} from users where true ${keyset.after}
        ${keyset.orderAndLimit}`;
      const { items, next_cursor } = keyset.cut(rows);
      return { items: items.map(toAccount), next_cursor };
    },

    async changeAccess(id, change, audit) {
      if (!isUuid(id)) return undefined;
      const row = await sql.begin(async (tx) => {
        const [changed] = await tx<UserRow[]>`
          update users set
            role = coalesce(${change.role ?? null}, role),
            disabled_at = case
              when ${change.disabled ?? null}::boolean is null then disabled_at
              when ${change.disabled ?? null}::boolean then coalesce(disabled_at, now())
              else null end,
            token_version = token_version + case when ${change.disabled === true} and disabled_at is null then 1 else 0 end,
            kept_session_id = case when ${change.disabled === true} then null else kept_session_id end,
            kept_session_version = case when ${change.disabled === true} then null else kept_session_version end,
            updated_at = now()
          where id = ${id}
          returning ${columnList(tx, USER_COLUMNS)}`;
        if (changed && audit) await createPostgresAuditLogWriter(tx).record(audit);
        return changed;
      });
      return row ? toAccount(row) : undefined;
    },

    async revokeTokens(id) {
      if (!isUuid(id)) return false;
      const rows = await sql`
        update users set token_version = token_version + 1, kept_session_id = null, kept_session_version = null,
          updated_at = now()
        where id = ${id}`;
      return rows.count > 0;
    },

    async changePassword(id, passwordHash, keep) {
      if (!isUuid(id)) return false;
      const rows = await sql`
        update users set password_hash = ${passwordHash}, token_version = token_version + 1,
          kept_session_id = ${keep?.id ?? null}, kept_session_version = ${keep?.version ?? null}, updated_at = now()
        where id = ${id}`;
      return rows.count > 0;
    },
  };
}
