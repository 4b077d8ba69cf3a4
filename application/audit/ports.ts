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
export interface AuditTrail {
  record(entry: AuditEntry): Promise<void>;
}

/** An entry as the audit log keeps it. */
export interface AuditRecord extends Required<AuditEntry> {
  readonly id: string;
  readonly at: Date;
}
