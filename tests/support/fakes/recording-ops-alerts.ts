import type { OpsAlert, OpsAlerts } from "../../../application/alerts/ports.ts";

/** Alerts raised in memory, once per kind, target and occurrence; rolled back with the unit of work. */
export function createRecordingOpsAlerts() {
  let alerts: OpsAlert[] = [];
  const key = (alert: OpsAlert) => `${alert.kind}:${alert.target_id}:${alert.occurrence ?? ""}`;
  const recorder: OpsAlerts = {
    async raise(alert) {
      if (!alerts.some((raised) => key(raised) === key(alert))) alerts.push(alert);
    },
  };
  return {
    ...recorder,
    all: () => [...alerts],
    snapshot() {
      const saved = [...alerts];
      return () => {
        alerts = saved;
      };
    },
  };
}

export type RecordingOpsAlerts = ReturnType<typeof createRecordingOpsAlerts>;
