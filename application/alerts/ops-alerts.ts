import type { EmailQueue, EmailTemplate } from "../mail/ports.ts";
import { adminPathFor } from "./admin-links.ts";
import type { OpsAlerts } from "./ports.ts";

/**
 * Alerts as emails to operations, queued in the caller's transaction, one per occurrence. Without
 * an operations address there is nobody to email: the log line the caller writes is the alert.
 */
export function makeOpsAlerts(deps: {
  readonly queue: EmailQueue;
  readonly opsEmail: string | undefined;
  readonly publicBaseUrl: string;
}): OpsAlerts {
  return {
    async raise(alert) {
      if (!deps.opsEmail) return;
      await deps.queue.queue({
        key: `ops:${alert.kind}:${alert.target_id}:${alert.occurrence ?? ""}`,
        template: `ops.${alert.kind}` as EmailTemplate,
        to: deps.opsEmail,
        data: {
          ...alert.details,
          target_id: alert.target_id,
          link: new URL(adminPathFor(alert.kind, alert.target_id), deps.publicBaseUrl).href,
        },
      });
    },
  };
}
