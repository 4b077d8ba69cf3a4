import { makeOpsAlerts } from "../../application/alerts/ops-alerts.ts";
import type { PasswordHasher } from "../../application/identity/ports.ts";
import type { SecretUseLog } from "../../application/secrets/ports.ts";
import type { Clock } from "../../application/shared/clock-and-log.ts";
import type { FollowUp, JobScheduler } from "../../application/shared/jobs.ts";
import type { OutboundUrlPolicy } from "../../application/shared/outbound-urls.ts";
import type { ChangeSignal, Mutex } from "../../application/shared/ports.ts";
import type { UnitOfWork } from "../../application/shared/unit-of-work.ts";
import type { Logger } from "../../kit/logger.ts";
import type { Config } from "../config/config.ts";
import type { JobWakeUp } from "../jobs/job-wake-up.ts";
import { createPostgresJobScheduler } from "../jobs/postgres-job-scheduler.ts";
import { createAdvisoryMutex } from "../postgres/advisory-mutex.ts";
import type { Database, Queryable, Sql } from "../postgres/database.ts";
import { createPostgresChangeSignal } from "../postgres/pg-change-signal.ts";
import { createPostgresUnitOfWork } from "../postgres/unit-of-work.ts";
import { createSecretStore } from "../secrets/secret-store.ts";
import { createGuardedFetch, type OutboundFetch } from "../security/guarded-fetch.ts";
import { createOutboundUrlPolicy } from "../security/url-guard.ts";
import { createInProcessChangeSignal } from "../signals/in-process-change-signal.ts";
import { createInProcessMutex } from "../signals/in-process-mutex.ts";

/** What the process hands to the wiring: configuration, the open database, keys and test seams. */
export interface Infrastructure {
  readonly config: Config;
  readonly logger: Logger;
  /** Request lines, without redaction (their shape holds no secret); defaults to `logger`. */
  readonly accessLogger?: Logger;
  readonly database: Pick<Database, "sql" | "mode">;
  readonly jwtSecret: string;
  readonly secretsKey: string;
  /** Where `SECRET_<REF>` variables are read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly hasher?: PasswordHasher;
  /** Injectable time for the minute tick and subscription dates (tests move it). */
  readonly clock?: Clock;
  /** The Ed25519 key pair licenses are signed with. */
  readonly licenseKeys: CryptoKeyPair;
  /** The job worker's jitter source (tests pin it to check backoff spacing). */
  readonly random?: () => number;
}

/** What every feature's wiring receives: the pieces of I/O the features share, built once. */
export interface Platform {
  /** The process's own inputs, for the few features that need one of them (keys, the hasher, jitter). */
  readonly infra: Infrastructure;
  readonly config: Config;
  readonly logger: Logger;
  readonly sql: Sql;
  /** Tells every instance that something changed (catalog, secrets, settings), and listens. */
  readonly changes: ChangeSignal & { close?(): Promise<void> };
  /** How a new job wakes the workers: `pg_notify` on a server, the change signal when embedded. */
  readonly wake: JobWakeUp;
  readonly clock: Clock;
  /** One holder at a time across instances (the minute tick). */
  readonly mutex: Mutex;
  /** Refuses a URL an admin saves when it points somewhere private. */
  readonly urls: OutboundUrlPolicy;
  /** The fetch every outbound call uses, checked again as it connects. */
  readonly outbound: OutboundFetch;
  readonly secrets: ReturnType<typeof createSecretStore>;
  /** The job scheduler of a transaction, so a job commits with the change that causes it. */
  readonly jobsFor: (tx: Queryable) => JobScheduler;
  /** The domain Message-IDs name. */
  readonly mailDomain: string;
  readonly uow: UnitOfWork;
  /** Where uses of secrets are recorded: audit entries and alerts to operations. */
  readonly secretUses: SecretUseLog;
}

/**
 * What every feature shares: the database, time, the change signal and lock (PostgreSQL-backed on a
 * server, in-process when embedded), the outbound guard, secrets and the unit of work.
 */
export function wirePlatform(infra: Infrastructure): Platform {
  const { config, logger } = infra;
  const { sql } = infra.database;
  const server = infra.database.mode === "server";
  const changes: ChangeSignal & { close?(): Promise<void> } = server
    ? createPostgresChangeSignal({ sql, logger })
    : createInProcessChangeSignal();
  const wake: JobWakeUp = server ? "notify" : changes;
  const jobsFor = (tx: Queryable, followUp?: FollowUp) => createPostgresJobScheduler({ sql: tx, wake, followUp });
  /** Message-IDs name the sender's domain. */
  const mailDomain = /@([^>\s]+)>?$/.exec(config.mail.from ?? "")?.[1] ?? new URL(config.publicBaseUrl).hostname;
  const uow = createPostgresUnitOfWork(sql, jobsFor, {
    mailDomain,
    alertsFor: (queue) => makeOpsAlerts({ queue, opsEmail: config.mail.opsEmail, publicBaseUrl: config.publicBaseUrl }),
  });
  /** Where secrets are sent: audit entries and alerts to operations, in one transaction. */
  const secretUses: SecretUseLog = {
    record: (entries, alerts) =>
      uow.run(async (scope) => {
        for (const entry of entries) await scope.audit.record(entry);
        for (const alert of alerts) await scope.alerts.raise(alert);
      }),
  };
  return {
    infra,
    config,
    logger,
    sql,
    changes,
    wake,
    clock: infra.clock ?? (() => new Date()),
    mutex: server ? createAdvisoryMutex(sql) : createInProcessMutex(),
    urls: createOutboundUrlPolicy({ allowPrivate: config.allowPrivateProviderUrls }),
    outbound: createGuardedFetch({ allowPrivate: config.allowPrivateProviderUrls }),
    secrets: createSecretStore({ sql, keyMaterial: infra.secretsKey, env: infra.env, changes }),
    jobsFor,
    mailDomain,
    uow,
    secretUses,
  };
}
