import { ApiProblem, unwrap } from "../../shared/api.ts";
import { CONNECTION_FAILURES } from "../../shared/connection.ts";
import { ActionButton } from "../../shared/ui.tsx";
import { api } from "../context.ts";

/** Why the API would not even try: its summary, then each refused field by its key. */
function refusal(error: unknown): string {
  if (!(error instanceof ApiProblem)) return error instanceof Error ? error.message : String(error);
  const fields = (error.problem.errors ?? []).map((e) => `${e.path.split("/").pop()}: ${e.message}.`);
  return ["Not connected.", error.message, ...fields].join(" ");
}

/**
 * Checks the provider address and credentials as the editor holds them now, saved or not. A
 * refusal of a field (an address the marketplace does not call) also goes to `onRefused`, so the
 * form can show it beside that field.
 */
export function TestConnection(props: {
  driver: string;
  config: Readonly<Record<string, unknown>>;
  onRefused: (error: unknown) => void;
}) {
  const check = () =>
    unwrap(
      api.POST("/api/admin/fulfillment/test-connection", {
        body: { fulfillment_driver: props.driver, fulfillment_config: { ...props.config } },
      }),
    );
  const run = async () => {
    let report: Awaited<ReturnType<typeof check>>;
    try {
      report = await check();
    } catch (error) {
      props.onRefused(error);
      throw new Error(refusal(error));
    }
    props.onRefused(undefined);
    if (!report.ok) throw new Error(`Not connected: ${CONNECTION_FAILURES[report.reason]}. ${report.message}`);
    return report;
  };
  return (
    <p>
      <ActionButton
        label="Test connection"
        run={run}
        describe={(report) => (report.ok ? `Connected (${report.latency_ms} ms)` : "")}
      />
    </p>
  );
}
