import type { IdempotencyBegin, IdempotencyStore } from "../../application/checkout/ports.ts";
import type { Sql } from "./database.ts";

/** A request that held a key this long without finishing died with its process; its key is free again. */
const STALE_AFTER_SECONDS = 300;

/** Which request a key belongs to: each route keeps its own keys, per user. */
export type IdempotentRoute = "checkout.create" | "checkout.create.guest" | "order.refund" | "license.upgrade";

export function createPostgresIdempotencyStore(sql: Sql, route: IdempotentRoute): IdempotencyStore {
  return {
    async begin(userId, key, requestHash): Promise<IdempotencyBegin> {
      const [claimed] = await sql`
        insert into idempotency_keys (user_id, route, key, request_hash, state)
        values (${userId}, ${route}, ${key}, ${requestHash}, 'in_progress')
        on conflict (user_id, route, key) do update
          set request_hash = excluded.request_hash, created_at = now()
          where idempotency_keys.state = 'in_progress'
            and idempotency_keys.created_at < now() - make_interval(secs => ${STALE_AFTER_SECONDS})
            and idempotency_keys.request_hash = excluded.request_hash
        returning key`;
      if (claimed) return { state: "new" };
      const [existing] = await sql<
        { request_hash: string; state: string; status_code: number | null; response: unknown }[]
      >`
        select request_hash, state, status_code, response from idempotency_keys
        where user_id = ${userId} and route = ${route} and key = ${key}`;
      if (!existing) return this.begin(userId, key, requestHash);
      if (existing.request_hash !== requestHash) return { state: "mismatch" };
      if (existing.state === "in_progress") return { state: "in_progress" };
      return { state: "completed", status: existing.status_code ?? 200, response: existing.response };
    },

    async complete(userId, key, status, response) {
      await sql`
        update idempotency_keys set state = 'completed', status_code = ${status}, response = ${sql.json(response as never)}
        where user_id = ${userId} and route = ${route} and key = ${key}`;
    },

    async abandon(userId, key) {
      await sql`
        delete from idempotency_keys
        where user_id = ${userId} and route = ${route} and key = ${key} and state = 'in_progress'`;
    },
  };
}
