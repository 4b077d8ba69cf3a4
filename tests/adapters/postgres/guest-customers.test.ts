import { describe, expect, test } from "bun:test";
import {
  createPostgresGuestClaims,
  createPostgresGuestCustomers,
  foldGuestInto,
  GUEST_RECORD_REFERENCES,
} from "../../../adapters/postgres/guest-customers.ts";
import { createPostgresUserRepository } from "../../../adapters/postgres/user-repository.ts";
import type { JobScheduler } from "../../../application/shared/jobs.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const guests = () => {
  const records = createPostgresGuestCustomers(db.current.sql);
  return {
    async forAddress(email: string, name: string) {
      const owner = await records.forAddress(email, name);
      if (!owner) throw new Error(`${email} is refused`);
      return owner;
    },
  };
};
const noJobs = () => ({}) as JobScheduler;
const claims = () => createPostgresGuestClaims(db.current.sql, noJobs);
const at = (offsetMs: number) => new Date(Date.parse("2026-11-28T12:00:00Z") + offsetMs);
const anAddress = () => `guest-${crypto.randomUUID()}@example.com`;

/** An account with a password at `email`, made as registration makes it. */
const anAccount = (email: string, role: "customer" | "admin" = "customer", passwordHash = "hash") =>
  createPostgresUserRepository(db.current.sql).insert({
    email,
    name: role === "admin" ? "Root" : "Ada",
    role,
    passwordHash,
  });

async function issueClaim(userId: string, email: string, tokenHash: string) {
  await db.current.sql`
    insert into email_links (token_hash, user_id, email, purpose, created_at, expires_at)
    values (${tokenHash}, ${userId}, ${email}, 'claim', ${at(0)}, ${at(3_600_000)})`;
}

describe("guest records in Postgres", () => {
  test("every column that names a user either moves with a folded guest record or goes with it", async () => {
    const references = await db.current.sql<{ table_name: string; column_name: string; on_delete: string }[]>`
      select c.conrelid::regclass::text as table_name, a.attname as column_name, c.confdeltype as on_delete
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
      where c.contype = 'f' and c.confrelid = 'users'::regclass`;
    const handled = new Set<string>([
      ...GUEST_RECORD_REFERENCES.map((table) => `${table}.customer_id`),
      // Only an admin completes a task: never a guest.
      "ops_tasks.completed_by",
    ]);
    const unhandled = references
      .filter((r) => r.on_delete !== "c" && !handled.has(`${r.table_name}.${r.column_name}`))
      .map((r) => `${r.table_name}.${r.column_name}`);
    expect(unhandled).toEqual([]);
  });

  test("one guest record per address, whatever its case; a verified account takes the orders instead", async () => {
    const email = anAddress();
    const first = await guests().forAddress(email, "Grace");
    expect(await guests().forAddress(email.toUpperCase(), "Someone else")).toEqual(first);
    const users = createPostgresUserRepository(db.current.sql);
    const account = await users.insert({ email, name: "Ada", role: "customer", passwordHash: "hash" });
    // An account that has not proven the address does not get what guests buy with it.
    expect((await guests().forAddress(email, "Grace")).id).toBe(first.id);
    await db.current.sql`update users set email_verified_at = now() where id = ${account?.id ?? ""}`;
    expect((await guests().forAddress(email, "Grace")).id).toBe(String(account?.id));
    // Sign-in and reset look up accounts only.
    expect((await users.findByEmail(email))?.id).toBe(String(account?.id));
  });

  test("folding removes the guest record", async () => {
    const email = anAddress();
    const guest = await guests().forAddress(email, "Grace");
    const account = await anAccount(email);
    const accountId = account?.id ?? "";
    await db.current.sql.begin((tx) => foldGuestInto(tx, email, accountId));
    expect(await db.current.sql`select 1 from users where id = ${guest.id}`).toHaveLength(0);
  });

  test("two claims racing for one guest record: one sets the password, the other finds its link spent", async () => {
    const email = anAddress();
    const guest = await guests().forAddress(email, "Grace");
    await issueClaim(guest.id, email, "claim-a");
    await issueClaim(guest.id, email, "claim-b");
    const outcomes = await Promise.all([
      claims().claim("claim-a", "hash-a", undefined, at(60_000), async () => {}),
      claims().claim("claim-b", "hash-b", undefined, at(60_000), async () => {}),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["claimed", "invalid"]);
    const [row] = await db.current.sql<{ guest: boolean; password_hash: string }[]>`
      select guest, password_hash from users where id = ${guest.id}`;
    expect(row?.guest).toBe(false);
    expect(["hash-a", "hash-b"]).toContain(row?.password_hash ?? "");
  });

  test("a claim link expires, and a claim on a disabled account with the address is refused, the link unspent", async () => {
    const email = anAddress();
    const guest = await guests().forAddress(email, "Grace");
    await issueClaim(guest.id, email, "claim-late");
    expect((await claims().claim("claim-late", "h", undefined, at(3_600_001), async () => {})).outcome).toBe("invalid");
    const account = await anAccount(email);
    await db.current.sql`update users set disabled_at = now() where id = ${account?.id ?? ""}`;
    await issueClaim(guest.id, email, "claim-disabled");
    expect((await claims().claim("claim-disabled", "h", undefined, at(60_000), async () => {})).outcome).toBe(
      "disabled",
    );
    const [link] = await db.current.sql<{ used_at: Date | null }[]>`
      select used_at from email_links where token_hash = 'claim-disabled'`;
    expect(link?.used_at).toBeNull();
  });
});

describe("a disabled address", () => {
  test("buys nothing as a guest, whether an admin disabled its guest record or its account", async () => {
    const records = createPostgresGuestCustomers(db.current.sql);
    const email = anAddress();
    const guest = await guests().forAddress(email, "Grace");
    await db.current.sql`update users set disabled_at = now() where id = ${guest.id}`;
    expect(await records.forAddress(email, "Grace")).toBeUndefined();
    const other = anAddress();
    const account = await anAccount(other);
    await db.current
      .sql`update users set disabled_at = now(), email_verified_at = now() where id = ${account?.id ?? ""}`;
    expect(await records.forAddress(other, "Ada")).toBeUndefined();
    const [made] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from users where guest and lower(email) = ${other}`;
    expect(made?.n).toBe(0);
  });

  test("a guest's notification still on its way is listed under the account the record folds into", async () => {
    const email = anAddress();
    const guest = await guests().forAddress(email, "Grace");
    const account = await anAccount(email);
    const [message] = await db.current.sql<{ id: string }[]>`
      insert into outbox (kind, payload) values ('fulfillment.ready', ${db.current.sql.json({ customer_id: guest.id })})
      returning id`;
    await db.current.sql.begin((tx) => foldGuestInto(tx, email, account?.id ?? ""));
    const [moved] = await db.current.sql<{ customer_id: string }[]>`
      select payload->>'customer_id' as customer_id from outbox where id = ${message?.id ?? ""}`;
    expect(moved?.customer_id).toBe(String(account?.id));
  });

  test("an admin's address takes in no guest record, and a guest's link sets no admin's password", async () => {
    const email = anAddress();
    const guest = await guests().forAddress(email, "Grace");
    const admin = await anAccount(email, "admin", "admin-hash");
    expect(await db.current.sql.begin((tx) => foldGuestInto(tx, email, admin?.id ?? ""))).toBe(false);
    await issueClaim(guest.id, email, "claim-admin");
    expect((await claims().claim("claim-admin", "h", undefined, at(60_000), async () => {})).outcome).toBe("taken");
    const [row] = await db.current.sql<
      { password_hash: string }[]
    >`select password_hash from users where id = ${admin?.id ?? ""}`;
    expect(row?.password_hash).toBe("admin-hash");
  });
});
