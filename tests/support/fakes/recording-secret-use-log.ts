import type { OpsAlert } from "../../../application/alerts/ports.ts";
import type { AuditEntry } from "../../../application/audit/ports.ts";
import type { SecretUseLog } from "../../../application/secrets/ports.ts";

/** Keeps what a use of secrets recorded: its audit entries and its alerts to operations. */
export function createRecordingSecretUseLog(): SecretUseLog & {
  readonly entries: AuditEntry[];
  readonly alerts: OpsAlert[];
} {
  const entries: AuditEntry[] = [];
  const alerts: OpsAlert[] = [];
  return {
    entries,
    alerts,
    async record(newEntries, newAlerts) {
      entries.push(...newEntries);
      alerts.push(...newAlerts);
    },
  };
}
