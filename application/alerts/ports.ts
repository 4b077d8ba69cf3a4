export type OpsAlertKind = "job_dead" | "order_needs_attention" | "task_overdue";

/** Something operations must look at. */
export interface OpsAlert {
  readonly kind: OpsAlertKind;
  /** The job, order or task concerned. */
  readonly target_id: string;
  /** Tells one occurrence from another for the same target (a job dead again after a redrive). */
  readonly occurrence?: string;
  /** What the alert's text shows. */
  readonly details: Readonly<Record<string, string>>;
}

/** Raises alerts inside the caller's transaction; each occurrence is alerted once. */
export interface OpsAlerts {
  raise(alert: OpsAlert): Promise<void>;
}
