import type {
  ActivationResult,
  LicenseActivations,
  Machine,
  StoredLicense,
} from "../../application/licensing/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable, Sql } from "./database.ts";

const MACHINE =
  "id, fingerprint, name, platform, hostname, created_at as activated_at, last_seen_at, checked_out_until";

type LicenseRow = Omit<StoredLicense, "entitlements"> & { download_version: string | null; downloadable: boolean };

/**
 * Frees the floating machines whose heartbeat is overdue at `now` and that hold no license file
 * still valid (of one license, or one machine, when given), writing each into its license's history.
 * Rows another transaction holds are skipped: it is changing them.
 */
async function releaseOverdue(
  db: Queryable,
  now: Date,
  limit: number,
  only: { licenseId: string; fingerprint?: string } | undefined,
) {
  const [row] = await db<{ n: number }[]>`
    with overdue as (
      select a.license_id, a.fingerprint from license_activations a join licenses l on l.id = a.license_id
      where l.floating and a.last_seen_at + make_interval(secs => l.heartbeat_seconds) < ${now}
        and (a.checked_out_until is null or a.checked_out_until <= ${now})
        ${only ? db`and a.license_id = ${only.licenseId}` : db``}
        ${only?.fingerprint !== undefined ? db`and a.fingerprint = ${only.fingerprint}` : db``}
      limit ${limit}
      for update of a skip locked
    ), released as (
      delete from license_activations a using overdue o
      where a.license_id = o.license_id and a.fingerprint = o.fingerprint
      returning a.license_id, a.fingerprint, a.last_seen_at
    ), noted as (
      insert into license_events (license_id, kind, actor, fingerprint, detail, at)
      select license_id, 'released', 'system', fingerprint, jsonb_build_object('last_seen_at', last_seen_at), ${now}
      from released returning 1
    )
    select count(*)::int as n from noted`;
  return row?.n ?? 0;
}

interface Locked {
  readonly license_key: string;
  readonly previous_key: string | null;
  readonly previous_key_valid_until: Date | null;
  readonly status: StoredLicense["status"];
  readonly max_activations: number;
  readonly floating: boolean;
  readonly heartbeat_seconds: number | null;
}

export function createPostgresLicenseActivations(sql: Sql): LicenseActivations {
  return {
    async findByKey(key) {
      const [row] = await sql<LicenseRow[]>`
        select l.id, l.product_id, p.name as product_name, l.license_type, l.max_activations, l.floating,
               l.heartbeat_seconds, l.offline_checkout_max_days, l.expires_at, l.status,
               (select count(*)::int from license_activations a where a.license_id = l.id) as activations,
               case when l.license_key = ${key} then null else l.previous_key_valid_until end
                 as replaced_key_valid_until,
               e.version as download_version, coalesce(e.revoked_at is null, false) as downloadable
        from licenses l join products p on p.id = l.product_id
        left join download_entitlements e on e.license_id = l.id
        where l.license_key = ${key} or l.previous_key = ${key}`;
      if (!row) return undefined;
      const { download_version, downloadable, ...license } = row;
      const entitlements = downloadable ? [download_version ? `download:${download_version}` : "download"] : [];
      return { ...license, entitlements };
    },
    async ownerOf(licenseId) {
      if (!isUuid(licenseId)) return undefined;
      const [row] = await sql<{ customer_id: string }[]>`select customer_id from licenses where id = ${licenseId}`;
      return row?.customer_id;
    },
    async machines(licenseId) {
      return [
        ...(await sql<Machine[]>`
          select ${sql.unsafe(MACHINE)} from license_activations where license_id = ${licenseId}
          order by created_at, id`),
      ];
    },
    async machine(licenseId, fingerprint) {
      const [row] = await sql<Machine[]>`
        select ${sql.unsafe(MACHINE)} from license_activations
        where license_id = ${licenseId} and fingerprint = ${fingerprint}`;
      return row;
    },
    async heartbeat(licenseId, fingerprint, now) {
      const [row] = await sql<Machine[]>`
        update license_activations set last_seen_at = greatest(last_seen_at, ${now})
        where license_id = ${licenseId} and fingerprint = ${fingerprint}
        returning ${sql.unsafe(MACHINE)}`;
      return row;
    },
    async release(licenseId, machine, actor, now) {
      if ("id" in machine && !isUuid(machine.id)) return "none";
      const which = "id" in machine ? sql`id = ${machine.id}` : sql`fingerprint = ${machine.fingerprint}`;
      const [row] = await sql<{ released: number; held: number }[]>`
        with gone as (
          delete from license_activations
          where license_id = ${licenseId} and ${which}
            and (checked_out_until is null or checked_out_until <= ${now})
          returning license_id, fingerprint
        ), noted as (
          insert into license_events (license_id, kind, actor, fingerprint, at)
          select license_id, 'deactivated', ${actor}, fingerprint, ${now} from gone returning 1
        )
        select (select count(*)::int from noted) as released,
               (select count(*)::int from license_activations where license_id = ${licenseId} and ${which}) as held`;
      return (row?.released ?? 0) > 0 ? "released" : (row?.held ?? 0) > 0 ? "checked_out" : "none";
    },
    releaseIdle: (now, limit, only) => releaseOverdue(sql, now, limit, only),
    async checkedOut(licenseId, fingerprint, expiresAt, now) {
      await sql.begin(async (tx) => {
        await tx`
          update license_activations set checked_out_until = greatest(checked_out_until, ${expiresAt})
          where license_id = ${licenseId} and fingerprint = ${fingerprint}`;
        await tx`
          insert into license_events (license_id, kind, actor, fingerprint, detail, at)
          values (${licenseId}, 'checked_out', 'software', ${fingerprint},
                  ${tx.json({ expires_at: expiresAt.toISOString() })}, ${now})`;
      });
    },
    activate(license, fingerprint, facts, clock) {
      return sql.begin(async (tx): Promise<ActivationResult> => {
        // The license row lock serializes activations, so concurrent machines cannot exceed the
        // maximum. `no key update` leaves the key share that history inserts take compatible. The
        // key, the status and the time are read once the lock is held, so that a reissue or a
        // suspension that committed while this waited is seen.
        const [locked] = await tx<Locked[]>`
          select license_key, previous_key, previous_key_valid_until, status, max_activations, floating,
                 heartbeat_seconds
          from licenses where id = ${license.id} for no key update`;
        const now = clock();
        const current =
          locked?.license_key === license.key ||
          (locked?.previous_key === license.key &&
            locked.previous_key_valid_until !== null &&
            locked.previous_key_valid_until > now);
        if (!locked || !current) return { outcome: "key_replaced" };
        if (locked.status !== "active") return { outcome: "unusable", status: locked.status };
        if (locked.floating) await releaseOverdue(tx, now, 10_000, { licenseId: license.id });
        // A known machine is seen again; what it says of itself now replaces what it said before.
        const [known] = await tx`
          update license_activations set last_seen_at = greatest(last_seen_at, ${now}),
            name = coalesce(${facts.name ?? null}, name),
            platform = coalesce(${facts.platform ?? null}, platform),
            hostname = coalesce(${facts.hostname ?? null}, hostname)
          where license_id = ${license.id} and fingerprint = ${fingerprint}
          returning 1`;
        const [count] = await tx<{ n: number; next_free: Date | null }[]>`
          select count(*)::int as n,
                 min(greatest(last_seen_at + make_interval(secs => ${locked.heartbeat_seconds ?? 0}),
                              coalesce(checked_out_until, '-infinity'))) as next_free
          from license_activations where license_id = ${license.id}`;
        const activations = count?.n ?? 0;
        if (known) return { outcome: "activated", new_activation: false, activations };
        if (activations >= locked.max_activations) {
          const nextFree = locked.floating ? count?.next_free : null;
          const seconds = nextFree ? Math.max(1, Math.ceil((nextFree.getTime() - now.getTime()) / 1000)) : null;
          return { outcome: "limit", retry_after: seconds };
        }
        await tx`
          insert into license_activations (license_id, fingerprint, name, platform, hostname, created_at, last_seen_at)
          values (${license.id}, ${fingerprint}, ${facts.name ?? null}, ${facts.platform ?? null},
                  ${facts.hostname ?? null}, ${now}, ${now})`;
        await tx`
          insert into license_events (license_id, kind, actor, fingerprint, at)
          values (${license.id}, 'activated', 'software', ${fingerprint}, ${now})`;
        return { outcome: "activated", new_activation: true, activations: activations + 1 };
      });
    },
  };
}
