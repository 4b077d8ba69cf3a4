import type { WebhookEndpoint, WebhookEndpointRepository } from "../../application/outgoing-webhooks/ports.ts";
import type { createSecretCipher } from "../secrets/secret-cipher.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

export type SecretCipher = ReturnType<typeof createSecretCipher>;

/** The additional data an endpoint's secrets are sealed with: a ciphertext moved to another endpoint fails to open. */
export const endpointSecretRef = (endpointId: string) => `webhook_endpoint:${endpointId}`;

const COLUMNS = ["id", "url", "events", "description", "previous_secret_expires_at", "created_at", "updated_at"];

/** Endpoints with their secrets sealed by the secrets key; none of the read methods ever returns a secret. */
export function createPostgresWebhookEndpointRepository(
  sql: Queryable,
  cipher: SecretCipher,
): WebhookEndpointRepository {
  const columns = columnList(sql, COLUMNS);
  return {
    async create(endpoint) {
      const id = crypto.randomUUID();
      const sealed = await cipher.seal(endpointSecretRef(id), endpoint.secret);
      const [row] = await sql<WebhookEndpoint[]>`
        insert into webhook_endpoints (id, url, events, description, secret_iv, secret_ciphertext)
        values (${id}, ${endpoint.url}, ${endpoint.events as string[]}::text[], ${endpoint.description},
                ${sealed.iv}, ${sealed.ciphertext})
        returning ${columns}`;
      if (!row) throw new Error("webhook endpoint insert returned no row");
      return row;
    },

    async find(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<WebhookEndpoint[]>`select ${columns} from webhook_endpoints where id = ${id}`;
      return row;
    },

    async list(page) {
      const keyset = newestFirst<WebhookEndpoint>(sql, page);
      return keyset.cut(
        await sql<WebhookEndpoint[]>`
        select ${columns} from webhook_endpoints where true ${keyset.after} ${keyset.orderAndLimit}`,
      );
    },

    async update(id, change) {
      if (!isUuid(id)) return undefined;
      const describes = change.description !== undefined;
      const [row] = await sql<WebhookEndpoint[]>`
        update webhook_endpoints set
          url = coalesce(${change.url ?? null}, url),
          events = coalesce(${(change.events as string[] | undefined) ?? null}::text[], events),
          description = case when ${describes} then ${change.description ?? null} else description end,
          updated_at = now()
        where id = ${id}
        returning ${columns}`;
      return row;
    },

    async remove(id) {
      if (!isUuid(id)) return false;
      const removed = await sql`delete from webhook_endpoints where id = ${id} returning id`;
      return removed.length > 0;
    },

    async rotateSecret(id, secret, previousUntil) {
      if (!isUuid(id)) return undefined;
      const sealed = await cipher.seal(endpointSecretRef(id), secret);
      // Every right-hand side reads the row as it was: the current secret becomes the previous one.
      const [row] = await sql<WebhookEndpoint[]>`
        update webhook_endpoints set
          previous_secret_iv = secret_iv,
          previous_secret_ciphertext = secret_ciphertext,
          previous_secret_expires_at = ${previousUntil},
          secret_iv = ${sealed.iv},
          secret_ciphertext = ${sealed.ciphertext},
          updated_at = now()
        where id = ${id}
        returning ${columns}`;
      return row;
    },
  };
}
