import { sendEmailJob } from "../../application/mail/jobs.ts";
import { CREDENTIAL_VALUES, type EmailQueue, type EmailStore, type StoredEmail } from "../../application/mail/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable, Sql } from "./database.ts";

/**
 * Queues an email in the caller's transaction. Its key is unique for good, so a notification or an
 * alert handled twice still yields one message; the Message-ID is fixed here, once.
 */
export function createPostgresEmailQueue(sql: Queryable, jobs: JobScheduler, domain: string): EmailQueue {
  return {
    async queue(email) {
      const messageId = `<${crypto.randomUUID()}@${domain}>`;
      const [row] = await sql<{ id: string }[]>`
        insert into emails (idempotency_key, template, recipient, data, message_id)
        values (${email.key}, ${email.template}, ${email.to}, ${sql.json(email.data as never)}, ${messageId})
        on conflict (idempotency_key) do nothing
        returning id`;
      if (!row) return;
      const ops = email.template.startsWith("ops.");
      await jobs.enqueue(sendEmailJob({ email_id: row.id, ops }));
    },
  };
}

const CREDENTIALS = [...CREDENTIAL_VALUES];

/** What the sending job reads and marks; a credential in an email's values is erased once it is sent or dead. */
export function createPostgresEmailStore(sql: Queryable): EmailStore {
  return {
    async find(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<(StoredEmail & { recipient: string; idempotency_key: string })[]>`
        select id, idempotency_key, template, recipient, data, message_id, state from emails where id = ${id}`;
      if (!row) return undefined;
      return {
        id: row.id,
        key: row.idempotency_key,
        template: row.template,
        to: row.recipient,
        data: row.data,
        message_id: row.message_id,
        state: row.state,
      };
    },
    async markSent(id) {
      await sql`
        update emails set state = 'sent', sent_at = now(), last_error = null, data = data - ${CREDENTIALS}::text[]
        where id = ${id} and state <> 'sent'`;
    },
    async markDead(id, error) {
      await sql`
        update emails set state = 'dead', last_error = ${error}, data = data - ${CREDENTIALS}::text[]
        where id = ${id} and state <> 'sent'`;
    },
  };
}

/** Queues outside any caller's transaction: in one of its own, so the email and its job commit together. */
export function createPostgresStandaloneEmailQueue(
  sql: Sql,
  jobsFor: (tx: Queryable) => JobScheduler,
  domain: string,
): EmailQueue {
  return {
    queue: (email) => sql.begin((tx) => createPostgresEmailQueue(tx, jobsFor(tx), domain).queue(email)),
  };
}
