import type { GuestCustomers } from "../../application/checkout/ports.ts";
import type { GuestClaims } from "../../application/identity/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import type { Account } from "../../domain/identity/account.ts";
import { columnList } from "./column-list.ts";
import { isUniqueViolation, type Queryable, type Sql } from "./database.ts";
import { toAccount, USER_COLUMNS, type UserRow } from "./user-repository.ts";

/**
 * Every column that names a customer and moves with a guest record folded into an account. A test
 * holds this list against the database's foreign keys, so a table added later is not left behind.
 */
export const GUEST_RECORD_REFERENCES = [
  "orders",
  "fulfillment_records",
  "subscriptions",
  "installations",
  "licenses",
  "download_entitlements",
  "notifications",
  "discount_redemptions",
] as const;

/**
 * Folds the address's guest record, if there is one, into the customer account that has just
 * proven the address: its orders, deliveries and notifications move over (those still to be sent
 * too), and the record goes
 * with its links. An admin's account takes in nothing. Runs inside the caller's transaction.
 */
export async function foldGuestInto(tx: Queryable, email: string, accountId: string): Promise<boolean> {
  const [guest] = await tx<{ id: string }[]>`
    select g.id from users g
    where g.guest and lower(g.email) = lower(${email})
      and exists (select 1 from users a where a.id = ${accountId} and a.role = 'customer' and not a.guest)
    for update`;
  if (!guest) return false;
  for (const table of GUEST_RECORD_REFERENCES) {
    await tx`update ${tx(table)} set customer_id = ${accountId} where customer_id = ${guest.id}`;
  }
  // A notification on its way names its customer in its payload, and is listed under that customer.
  await tx`
    update outbox set payload = jsonb_set(payload, '{customer_id}', to_jsonb(${accountId}::text))
    where dispatched_at is null and payload->>'customer_id' = ${guest.id}`;
  await tx`delete from users where id = ${guest.id}`;
  return true;
}

class Disabled extends Error {}
class AdminAddress extends Error {}

export function createPostgresGuestCustomers(sql: Sql): GuestCustomers {
  return {
    // One statement either way, so the time taken does not tell an account's address from a guest's.
    async forAddress(email, name) {
      const [owner] = await sql<{ id: string | null; email: string; name: string }[]>`
        with blocked as (
          select 1 from users where lower(email) = lower(${email}) and disabled_at is not null
        ), account as (
          select id, email, name from users
          where lower(email) = lower(${email}) and not guest and role = 'customer'
            and email_verified_at is not null and not exists (select 1 from blocked)
        ), guest as (
          insert into users (email, name, role, password_hash, guest)
          select ${email}, ${name}, 'customer', null, true
          where not exists (select 1 from account) and not exists (select 1 from blocked)
          on conflict (lower(email)) where guest do update set updated_at = users.updated_at
          returning id, email, name
        )
        select id, email, name from account
        union all
        select id, email, name from guest
        union all
        select null, ${email}, ${name} where exists (select 1 from blocked)`;
      if (!owner) throw new Error("guest record upsert returned no row");
      return owner.id === null ? undefined : { id: owner.id, email: owner.email, name: owner.name };
    },
  };
}

export function createPostgresGuestClaims(sql: Sql, jobsFor: (tx: Queryable) => JobScheduler): GuestClaims {
  const attempt = (
    tokenHash: string,
    passwordHash: string,
    name: string | undefined,
    now: Date,
    then: (account: Account, jobs: JobScheduler) => Promise<void>,
  ) =>
    sql.begin(async (tx) => {
      // The guest's row is locked before any of its links: two claims with two links of one guest
      // queue on it, where locking the links first would deadlock (each spends the other's link).
      const [named] = await tx<{ user_id: string }[]>`
        select user_id from email_links
        where token_hash = ${tokenHash} and purpose = 'claim' and used_at is null and expires_at > ${now}`;
      if (!named) return undefined;
      const [guest] = await tx<{ id: string; email: string }[]>`
        select id, email from users where id = ${named.user_id} and guest for update`;
      if (!guest) return undefined;
      // Under the guest's lock: a claim that got here first has spent the link, and this one finds it used.
      const [link] = await tx<{ user_id: string }[]>`
        update email_links set used_at = ${now}
        where token_hash = ${tokenHash} and purpose = 'claim' and used_at is null and expires_at > ${now}
        returning user_id`;
      if (!link) return undefined;
      const [account] = await tx<{ id: string; disabled: boolean; role: string }[]>`
        select id, disabled_at is not null as disabled, role from users
        where lower(email) = lower(${guest.email}) and not guest for update`;
      let claimed: UserRow | undefined;
      // An admin's address is the admin's: a guest's link does not set an admin's password.
      if (account?.role === "admin") throw new AdminAddress();
      if (account) {
        // Whoever holds the address's mail decides: the account, proven or not, takes this password
        // (as a password reset would) and every other session ends.
        if (account.disabled) throw new Disabled();
        [claimed] = await tx<UserRow[]>`
          update users set password_hash = ${passwordHash}, email_verified_at = coalesce(email_verified_at, ${now}),
            token_version = token_version + 1, kept_session_id = null, kept_session_version = null, updated_at = now()
          where id = ${account.id}
          returning ${columnList(tx, USER_COLUMNS)}`;
        await foldGuestInto(tx, guest.email, account.id);
      } else {
        [claimed] = await tx<UserRow[]>`
          update users set guest = false, password_hash = ${passwordHash}, name = coalesce(${name ?? null}, name),
            email_verified_at = ${now}, token_version = token_version + 1, updated_at = now()
          where id = ${guest.id}
          returning ${columnList(tx, USER_COLUMNS)}`;
        await tx`update email_links set used_at = ${now} where user_id = ${guest.id} and used_at is null`;
      }
      if (!claimed) throw new Error("claimed account vanished");
      const result = toAccount(claimed);
      await then(result, jobsFor(tx));
      return result;
    });

  return {
    async claim(tokenHash, passwordHash, name, now, then) {
      for (let tries = 0; ; tries++) {
        try {
          const account = await attempt(tokenHash, passwordHash, name, now, then);
          return account ? { outcome: "claimed", account } : { outcome: "invalid" };
        } catch (error) {
          if (error instanceof Disabled) return { outcome: "disabled" };
          if (error instanceof AdminAddress) return { outcome: "taken" };
          // An account registered with the address meanwhile: try again, and the claim joins it.
          if (isUniqueViolation(error) && tries === 0) continue;
          throw error;
        }
      }
    },
  };
}
