import type { OpsAlertKind } from "./ports.ts";

/** The admin API resource an alert is about, as a path under the public base URL. */
export function adminPathFor(kind: OpsAlertKind, targetId: string): string {
  const id = encodeURIComponent(targetId);
  switch (kind) {
    case "job_dead":
      return `/api/admin/jobs?state=dead#${id}`;
    case "order_needs_attention":
      return `/api/admin/orders/${id}`;
    case "task_overdue":
      return `/api/admin/manual-tasks?status=open#${id}`;
    case "secret_destination":
      return `/api/admin/audit-log?target_id=${id}`;
  }
}
