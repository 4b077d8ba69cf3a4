import { Buffer } from "node:buffer";
import type { Sql } from "./database.ts";
import { IDEMPOTENCY_KEY_HOURS } from "./history-retention.ts";
import type { SecretCipher } from "./webhook-endpoint-repository.ts";

/** A request that held a key this long without finishing died with its process; its key is free again. */
const STALE_AFTER_SECONDS = 300;

/** An answer as it was sent: what a replay sends again. */
export interface StoredAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Uint8Array<ArrayBuffer>;
}

/** Which request a key names: the caller's own, for one route template. */
export interface KeyScope {
  readonly caller: string;
  readonly route: string;
  readonly key: string;
}

export type IdempotentBegin =
  | { readonly state: "new" }
  | { readonly state: "in_progress" }
  | { readonly state: "mismatch" }
  | { readonly state: "completed"; readonly answer: StoredAnswer };

export interface IdempotentRequestStore {
  /** Claims the key for a request of `requestHash`, or says what holds it. */
  begin(scope: KeyScope, requestHash: string): Promise<IdempotentBegin>;
  complete(scope: KeyScope, answer: StoredAnswer): Promise<void>;
  /** Frees a key whose request must not be replayed (a 5xx, a 429), so it may be retried. */
  abandon(scope: KeyScope): Promise<void>;
}

/** What a sealed answer is bound to: the same bytes copied onto another key's row fail to open. */
const sealRef = (scope: KeyScope) => `idempotency:${scope.caller}:${scope.route}:${scope.key}`;

export function createPostgresIdempotentRequestStore(sql: Sql, cipher: SecretCipher): IdempotentRequestStore {
  return {
    async begin(scope, requestHash): Promise<IdempotentBegin> {
      const { caller, route, key } = scope;
      const [claimed] = await sql`
        insert into idempotent_requests (caller, route, key, request_hash, state)
        values (${caller}, ${route}, ${key}, ${requestHash}, 'in_progress')
        on conflict (caller, route, key) do update
          set request_hash = excluded.request_hash, created_at = now(), state = 'in_progress',
              status_code = null, content_type = null, iv = null, sealed_body = null
          where (idempotent_requests.state = 'in_progress'
              and idempotent_requests.created_at < now() - make_interval(secs => ${STALE_AFTER_SECONDS})
              and idempotent_requests.request_hash = excluded.request_hash)
            -- Past its 24 hours a key is new again, should the minute tick not have deleted it yet.
            or idempotent_requests.created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})
        returning key`;
      if (claimed) return { state: "new" };
      const [existing] = await sql<
        {
          request_hash: string;
          state: string;
          status_code: number | null;
          content_type: string | null;
          iv: Uint8Array | null;
          sealed_body: Uint8Array | null;
        }[]
      >`
        select request_hash, state, status_code, content_type, iv, sealed_body from idempotent_requests
        where caller = ${caller} and route = ${route} and key = ${key}`;
      // Freed between the insert and the read: claim it again.
      if (!existing) return this.begin(scope, requestHash);
      if (existing.request_hash !== requestHash) return { state: "mismatch" };
      if (existing.state === "in_progress" || !existing.iv || !existing.sealed_body) return { state: "in_progress" };
      const opened = await cipher.open(sealRef(scope), { iv: existing.iv, ciphertext: existing.sealed_body });
      return {
        state: "completed",
        answer: {
          status: existing.status_code ?? 200,
          contentType: existing.content_type,
          body: new Uint8Array(Buffer.from(opened, "base64")),
        },
      };
    },

    async complete(scope, answer) {
      // Sealed as base64: the cipher takes text, and an answer's bytes are kept whatever they are.
      const sealed = await cipher.seal(sealRef(scope), Buffer.from(answer.body).toString("base64"));
      await sql`
        update idempotent_requests
        set state = 'completed', status_code = ${answer.status}, content_type = ${answer.contentType},
            iv = ${sealed.iv}, sealed_body = ${sealed.ciphertext}
        where caller = ${scope.caller} and route = ${scope.route} and key = ${scope.key}`;
    },

    async abandon(scope) {
      await sql`
        delete from idempotent_requests
        where caller = ${scope.caller} and route = ${scope.route} and key = ${scope.key} and state = 'in_progress'`;
    },
  };
}
