import type { NewUser, StoredUser, UserRepository } from "../../application/identity/ports.ts";
import type { Role, User } from "../../domain/identity/user.ts";
import type { Queryable } from "./database.ts";

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string;
  created_at: Date;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: row.created_at,
});

const toStoredUser = (row: UserRow): StoredUser => ({ ...toUser(row), passwordHash: row.password_hash });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createPostgresUserRepository(sql: Queryable): UserRepository {
  return {
    async findByEmail(email) {
      const [row] = await sql<UserRow[]>`
        select id, email, name, role, password_hash, created_at
        from users where lower(email) = lower(${email})`;
      return row ? toStoredUser(row) : undefined;
    },

    async findById(id) {
      if (!UUID.test(id)) return undefined;
      const [row] = await sql<UserRow[]>`
        select id, email, name, role, password_hash, created_at from users where id = ${id}`;
      return row ? toUser(row) : undefined;
    },

    async insert(user: NewUser) {
      const [row] = await sql<UserRow[]>`
        insert into users (email, name, role, password_hash)
        values (${user.email}, ${user.name}, ${user.role}, ${user.passwordHash})
        on conflict (lower(email)) do nothing
        returning id, email, name, role, password_hash, created_at`;
      return row ? toUser(row) : undefined;
    },

    async upsert(user: NewUser) {
      const [row] = await sql<UserRow[]>`
        insert into users (email, name, role, password_hash)
        values (${user.email}, ${user.name}, ${user.role}, ${user.passwordHash})
        on conflict (lower(email)) do update
          set name = excluded.name, role = excluded.role,
              password_hash = excluded.password_hash, updated_at = now()
        returning id, email, name, role, password_hash, created_at`;
      if (!row) throw new Error("upsert returned no row");
      return toUser(row);
    },
  };
}
