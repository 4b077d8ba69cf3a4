import type { PasswordResets } from "../../application/identity/ports.ts";
import type { Sql } from "./database.ts";

export function createPostgresPasswordResets(sql: Sql): PasswordResets {
  return {
    async issue(reset) {
      await sql`
        insert into password_resets (token_hash, user_id, created_at, expires_at)
        values (${reset.tokenHash}, ${reset.userId}, ${reset.createdAt}, ${reset.expiresAt})`;
    },

    async issuedSince(userId, since) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from password_resets where user_id = ${userId} and created_at >= ${since}`;
      return row?.n ?? 0;
    },

    redeem: (tokenHash, passwordHash, now) =>
      sql.begin(async (tx) => {
        // The row lock makes a second redeem of the same link wait, then find it used.
        const [spent] = await tx<{ user_id: string }[]>`
          update password_resets set used_at = ${now}
          where token_hash = ${tokenHash} and used_at is null and expires_at > ${now}
          returning user_id`;
        if (!spent) return undefined;
        await tx`
          update password_resets set used_at = ${now}
          where user_id = ${spent.user_id} and used_at is null`;
        const [user] = await tx<{ id: string; email: string }[]>`
          update users set password_hash = ${passwordHash}, token_version = token_version + 1,
            kept_session_id = null, kept_session_version = null, updated_at = now()
          where id = ${spent.user_id}
          returning id, email`;
        return user && { userId: user.id, email: user.email };
      }),
  };
}
