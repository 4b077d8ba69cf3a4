import type { SignInThrottle } from "../../application/identity/ports.ts";
import { decideSignInAttempt } from "../../domain/identity/sign-in-throttle.ts";
import type { Sql } from "./database.ts";

interface Row {
  failures: number;
  locked_until: Date | null;
  last_attempt_at: Date;
}

/**
 * The per-account sign-in count in PostgreSQL, so every instance sees the same one. An attempt
 * takes the account's row lock, so concurrent attempts on one account are decided one after the
 * other and each sees the count the one before it left.
 */
export function createPostgresSignInThrottle(sql: Sql): SignInThrottle {
  return {
    take: (email, now) =>
      sql.begin(async (tx) => {
        await tx`
          insert into sign_in_attempts (email, failures, last_attempt_at) values (${email}, 0, ${now})
          on conflict (email) do nothing`;
        const [row] = await tx<Row[]>`
          select failures, locked_until, last_attempt_at from sign_in_attempts where email = ${email} for update`;
        const decision = decideSignInAttempt(
          row && { failures: row.failures, lockedUntil: row.locked_until, lastAttemptAt: row.last_attempt_at },
          now,
        );
        if (decision.allowed) {
          const { failures, lockedUntil, lastAttemptAt } = decision.next;
          await tx`
            update sign_in_attempts
            set failures = ${failures}, locked_until = ${lockedUntil}, last_attempt_at = ${lastAttemptAt}
            where email = ${email}`;
        }
        return decision;
      }),

    async clear(email) {
      await sql`delete from sign_in_attempts where email = ${email}`;
    },
  };
}
