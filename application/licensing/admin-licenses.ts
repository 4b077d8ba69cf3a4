import { notifyJob } from "../notifications/jobs.ts";
import type { LicenseNoticeKind } from "../notifications/ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import type { PageRequest } from "../shared/ports.ts";
import type { TransactionScope, UnitOfWork } from "../shared/unit-of-work.ts";
import type {
  AdminLicense,
  AdminLicenseFilter,
  LicenseAdminReader,
  LicenseChange,
  LicenseKeySigner,
} from "./admin-ports.ts";
import {
  CustomerLicenseNotFound,
  LicenseAlreadySuspended,
  LicenseNotSuspended,
  LicensePerpetual,
  LicenseUnusable,
} from "./errors.ts";

const DAY_MS = 86_400_000;
const HISTORY = 100;

/** A license as outgoing events show it: ids and public fields, never its key. */
export const licenseEventData = (license: AdminLicense) => ({
  license_id: license.id,
  customer_id: license.customer_id,
  product_id: license.product_id,
  order_id: license.order_id,
  license_type: license.license_type,
  status: license.status,
  expires_at: license.expires_at?.toISOString() ?? null,
});

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The shop's staff on licenses: find them, see their machines and history, and act: suspend
 * (held until reinstated, whatever the billing does), reinstate, free every seat, extend the
 * expiry, or reissue the key (the old one stops at once). Each action is audited; those the
 * customer must know of are told to them and sent as outgoing events, in the same transaction.
 */
export function makeAdminLicenses(deps: {
  readonly reader: LicenseAdminReader;
  readonly uow: UnitOfWork;
  readonly signer: LicenseKeySigner;
  readonly clock: Clock;
  readonly log: Log;
}) {
  async function get(id: string) {
    const license = await deps.reader.find(id);
    if (!license) throw new CustomerLicenseNotFound();
    const [machines, history] = await Promise.all([deps.reader.machines(id), deps.reader.history(id, HISTORY)]);
    return { license, machines, history };
  }

  async function tell(scope: TransactionScope, kind: LicenseNoticeKind, license: AdminLicense) {
    const outboxId = await scope.outbox.add(kind, {
      license_id: license.id,
      customer_id: license.customer_id,
      product_id: license.product_id,
      order_id: license.order_id,
    });
    await scope.jobs.enqueue(notifyJob({ outbox_id: outboxId }));
    await scope.events.publish(kind, licenseEventData(license));
  }

  /**
   * Runs one action on the locked license: `decide` names the change (or refuses), the change is
   * applied and audited, and the customer told when `notice` says so.
   */
  async function act(
    id: string,
    actorId: string,
    action: string,
    decide: (license: AdminLicense) => Promise<LicenseChange>,
    notice?: LicenseNoticeKind,
  ) {
    await deps.uow.run(async (scope) => {
      const before = await scope.licenses.lock(id);
      if (!before) throw new CustomerLicenseNotFound();
      const change = await decide(before);
      const after = await scope.licenses.apply(id, change, `admin:${actorId}`, deps.clock());
      await scope.audit.record({
        actor_id: actorId,
        action: `license.${action}`,
        target_type: "license",
        target_id: id,
        summary: {
          status: { from: before.status, to: after.status },
          ...(change.kind === "extended"
            ? { expires_at: { from: before.expires_at?.toISOString() ?? null, to: after.expires_at?.toISOString() } }
            : {}),
          ...(change.kind === "machines_reset" ? { machines_freed: before.activations } : {}),
        },
      });
      if (notice) await tell(scope, notice, after);
      deps.log.info({ license_id: id, action, actor_id: actorId }, "license changed by an admin");
    });
    return get(id);
  }

  const notRevoked = (license: AdminLicense) => {
    if (license.status === "revoked") throw new LicenseUnusable("revoked");
  };

  return {
    listAdminLicenses: (filter: AdminLicenseFilter, page: PageRequest) => deps.reader.list(filter, page),
    getAdminLicense: get,

    /** Suspends the license until an admin reinstates it; a suspension by the billing becomes a hold. */
    suspendLicense: (id: string, actorId: string) =>
      act(
        id,
        actorId,
        "suspend",
        async (license) => {
          notRevoked(license);
          if (license.held) throw new LicenseAlreadySuspended();
          return { kind: "suspended" };
        },
        "license.suspended",
      ),

    /** Lifts a suspension, whoever made it. */
    reinstateLicense: (id: string, actorId: string) =>
      act(
        id,
        actorId,
        "reinstate",
        async (license) => {
          notRevoked(license);
          if (license.status !== "suspended") throw new LicenseNotSuspended();
          return { kind: "reinstated" };
        },
        "license.reinstated",
      ),

    /** Frees every seat: each machine activates again. */
    resetLicenseMachines: (id: string, actorId: string) =>
      act(id, actorId, "reset_machines", async () => ({ kind: "machines_reset" })),

    /** Moves the expiry `days` later, counted from now when it has passed. */
    extendLicense: (id: string, days: number, actorId: string) =>
      act(id, actorId, "extend", async (license) => {
        notRevoked(license);
        if (license.expires_at === null) throw new LicensePerpetual();
        const from = Math.max(license.expires_at.getTime(), deps.clock().getTime());
        return { kind: "extended", expires_at: new Date(from + days * DAY_MS) };
      }),

    /** A new key for the same license (same id, seats and machines); the old key stops at once. */
    reissueLicense: (id: string, actorId: string) =>
      act(
        id,
        actorId,
        "reissue",
        async (license) => {
          notRevoked(license);
          const now = deps.clock();
          const key = await deps.signer.sign({
            lid: license.id,
            pid: license.product_id,
            cid: license.customer_id,
            typ: license.license_type,
            max: license.max_activations,
            iat: unixSeconds(now),
            exp: license.expires_at === null ? null : unixSeconds(license.expires_at),
            rev: license.reissues + 1,
          });
          return { kind: "reissued", license_key: key, at: now };
        },
        "license.reissued",
      ),
  };
}
