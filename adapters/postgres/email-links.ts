import type { EmailLinkPurpose, EmailLinkSpent, EmailLinks } from "../../application/identity/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import { isUniqueViolation, type Queryable, type Sql } from "./database.ts";
import { foldGuestInto } from "./guest-customers.ts";

/** Rolls the transaction back with the link unspent. */
class AddressTaken extends Error {}

export function createPostgresEmailLinks(sql: Sql, jobsFor: (tx: Queryable) => JobScheduler): EmailLinks {
  return {
    async issue(link) {
      await sql`
        insert into email_links (token_hash, user_id, email, purpose, created_at, expires_at)
        values (${link.tokenHash}, ${link.userId}, ${link.email}, ${link.purpose}, ${link.createdAt}, ${link.expiresAt})`;
    },

    async issuedSince(userId, since) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from email_links where user_id = ${userId} and created_at >= ${since}`;
      return row?.n ?? 0;
    },

    async redeem(tokenHash, now, then) {
      try {
        return await sql.begin(async (tx) => {
          // The row lock makes a second redeem of the same link wait, then find it used.
          // A guest's claim link sets a password (guest-customers.ts); it proves nothing here.
          const [link] = await tx<{ user_id: string; email: string; purpose: Exclude<EmailLinkPurpose, "claim"> }[]>`
            update email_links set used_at = ${now}
            where token_hash = ${tokenHash} and purpose <> 'claim' and used_at is null and expires_at > ${now}
            returning user_id, email, purpose`;
          if (!link) return { outcome: "invalid" } as const;
          const [account] = await tx<{ email: string; name: string }[]>`
            select email, name from users where id = ${link.user_id} for update`;
          if (!account) return { outcome: "invalid" } as const;
          let spent: EmailLinkSpent;
          if (link.purpose === "verify") {
            // A change of address spends every open link, so this holds unless the row was edited by hand.
            if (account.email.toLowerCase() !== link.email.toLowerCase()) return { outcome: "invalid" } as const;
            await tx`
              update users set email_verified_at = coalesce(email_verified_at, ${now}), updated_at = now()
              where id = ${link.user_id}`;
            spent = { outcome: "verified", userId: link.user_id, email: account.email };
          } else {
            await tx`
              update users set email = ${link.email}, email_verified_at = ${now}, updated_at = now()
              where id = ${link.user_id}`.catch((error: unknown) => {
              throw isUniqueViolation(error) ? new AddressTaken() : error;
            });
            await tx`update email_links set used_at = ${now} where user_id = ${link.user_id} and used_at is null`;
            spent = {
              outcome: "changed",
              userId: link.user_id,
              email: link.email,
              previousEmail: account.email,
              name: account.name,
            };
          }
          // The address is proven: what a guest bought with it joins the account.
          await foldGuestInto(tx, spent.email, spent.userId);
          await then(spent, jobsFor(tx));
          return spent;
        });
      } catch (error) {
        if (error instanceof AddressTaken) return { outcome: "taken" };
        throw error;
      }
    },
  };
}
