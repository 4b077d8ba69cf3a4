export type OpsAlertKind = "job_dead" | "order_needs_attention" | "task_overdue" | "secret_destination";

/** Something operations must look at. */
export interface OpsAlert {
  readonly kind: OpsAlertKind;
  /** The job, order, task or secret reference concerned. */
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

export interface DeadJob {
  readonly id: string;
  readonly kind: string;
  readonly attempts: number;
  readonly last_error: string | null;
  /** When it died: tells this death from one after a redrive. */
  readonly dead_at: Date;
  /** An email to operations itself: its death is logged, never alerted by email. */
  readonly ops_email: boolean;
}

export interface OverdueTask {
  readonly id: string;
  readonly kind: string;
  readonly queue_id: string;
  readonly due_at: Date;
  readonly instructions: string;
}

/** What the watch looks at: dead jobs and overdue tasks not alerted yet. */
export interface OpsWatchSource {
  /** Jobs dead-lettered in the last day and not alerted since. */
  unalertedDeadJobs(limit: number): Promise<DeadJob[]>;
  markJobAlerted(id: string): Promise<void>;
  /** Open tasks past their due time, never alerted. */
  unalertedOverdueTasks(now: Date, limit: number): Promise<OverdueTask[]>;
  markTaskAlerted(id: string): Promise<void>;
}
