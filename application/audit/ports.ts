import type { Page, PageRequest } from "../shared/ports.ts";

/** One admin action that changed state, written in the transaction of the change. */
export interface AuditEntry {
  /** The admin who acted. */
  readonly actor_id: string;
  /** What was done, as `<resource>.<verb>`: `order.refund`, `product.update`, `secret.set`. */
  readonly action: string;
  /** The kind of thing acted on: `order`, `product`, `gateway_settings`, `secret`, `job`. */
  readonly target_type: string;
  readonly target_id: string;
  /** What changed, with every secret value replaced (see `redactSummary`). */
  readonly summary?: Readonly<Record<string, unknown>>;
}

/** Where a transaction writes its audit entries; bound to that transaction. */
export interface AuditLogWriter {
  record(entry: AuditEntry): Promise<void>;
}

/** An entry as the audit log keeps it. */
export interface AuditRecord extends Required<AuditEntry> {
  readonly id: string;
  readonly at: Date;
  /** An account, or an API key (then `actor_name` is the key's name when it acted). */
  readonly actor_kind: "user" | "api_key";
  readonly actor_name: string | null;
}

/**
 * Every feature builds its entries' summaries with this rule; exported with the port, since a
 * feature reaches another only through its ports.
 */
export { redactSummary } from "./redact-summary.ts";

/**
 * The actor of changes the marketplace makes by itself, with no admin signed in (the demo catalog
 * seeded at start): the nil UUID, which no account ever has.
 */
export const SYSTEM_ACTOR_ID = "00000000-0000-0000-0000-000000000000";

export interface AuditFilter {
  readonly actor_id?: string;
  readonly target_id?: string;
  readonly action?: string;
}

/** The audit log, newest first; the cursor is opaque and a bad one is a validation error. */
export interface AuditLogReader {
  list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>>;
}
