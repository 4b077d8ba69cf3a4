import type { SignInThrottle } from "../../application/identity/ports.ts";
import { decideSignInAttempts, type SignInAttempts } from "../../domain/identity/sign-in-throttle.ts";
import type { Sql } from "./database.ts";

interface Row {
  client: string;
  failures: number;
  locked_until: Date | null;
  last_attempt_at: Date;
}

/** The `client` of the account-wide count; an address is never empty. */
const ACCOUNT_WIDE = "";

const toAttempts = (row: Row | undefined): SignInAttempts | undefined =>
  row && { failures: row.failures, lockedUntil: row.locked_until, lastAttemptAt: row.last_attempt_at };

/**
 * The sign-in counts in PostgreSQL, so every instance sees the same ones. An attempt takes the
 * account-wide row's lock first, then its address's, so concurrent attempts on one account are
 * decided one after the other (and never deadlock) and each sees the counts the one before it left.
 */
export function createPostgresSignInThrottle(sql: Sql): SignInThrottle {
  return {
    take: (email, client, now) =>
      sql.begin(async (tx) => {
        await tx`
          insert into sign_in_attempts (email, client, failures, last_attempt_at)
          values (${email}, ${ACCOUNT_WIDE}, 0, ${now}), (${email}, ${client}, 0, ${now})
          on conflict (email, client) do nothing`;
        await tx`select 1 from sign_in_attempts where email = ${email} and client = ${ACCOUNT_WIDE} for update`;
        const rows = await tx<Row[]>`
          select client, failures, locked_until, last_attempt_at from sign_in_attempts
          where email = ${email} and client in (${ACCOUNT_WIDE}, ${client}) for update`;
        const decision = decideSignInAttempts(
          {
            address: toAttempts(rows.find((row) => row.client === client)),
            account: toAttempts(rows.find((row) => row.client === ACCOUNT_WIDE)),
          },
          now,
        );
        if (decision.allowed) {
          for (const [key, next] of [
            [client, decision.next.address],
            [ACCOUNT_WIDE, decision.next.account],
          ] as const) {
            await tx`
              update sign_in_attempts
              set failures = ${next.failures}, locked_until = ${next.lockedUntil}, last_attempt_at = ${next.lastAttemptAt}
              where email = ${email} and client = ${key}`;
          }
        }
        return decision;
      }),

    async clear(email, client) {
      if (client === undefined) await sql`delete from sign_in_attempts where email = ${email}`;
      else await sql`delete from sign_in_attempts where email = ${email} and client in (${ACCOUNT_WIDE}, ${client})`;
    },
  };
}
