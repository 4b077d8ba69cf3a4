import { useId } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { CONNECTION_FAILURES } from "../../shared/connection.ts";
import { ActionButton, TableBox } from "../../shared/ui.tsx";
import { GATEWAY_NAMES } from "../choices.ts";
import { api } from "../context.ts";

type Settings = Schemas["GatewaySettings"];
type Report = Schemas["GatewayConnectionReport"];
type Environment = Schemas["GatewayEnvironmentSettings"];
type Breaker = Schemas["GatewayBreaker"];

function describeConnection(report: Report): string {
  if (report.ok) return `Connected to the ${report.environment} environment in ${report.latency_ms} ms.`;
  const where = report.environment ? ` (${report.environment} environment)` : "";
  return `Not connected${where}: ${CONNECTION_FAILURES[report.reason]}. ${report.message}`;
}

/**
 * Whether a secret is set, with the name of the reference it is kept under; never its value. A
 * missing one matters only in the environment in use.
 */
function Secret(props: { set: boolean; reference: string | null; active: boolean }) {
  if (!props.reference) return <>not used</>;
  const unset = props.active ? <strong class="error">not set</strong> : "not set";
  return (
    <>
      {props.set ? "set" : unset} <small class="note">({props.reference})</small>
    </>
  );
}

/** The circuit breaker in words: what checkouts do with the gateway now. */
function BreakerState(props: { breaker: Breaker | undefined }) {
  const { breaker } = props;
  if (!breaker || breaker.state === "closed") {
    const failures = breaker?.consecutive_failures ?? 0;
    return <>closed{failures > 0 ? ` (${failures} failed in a row)` : ""}</>;
  }
  const since = breaker.opened_at ? ` since ${new Date(breaker.opened_at).toLocaleTimeString()}` : "";
  if (breaker.state === "half_open") {
    return <strong class="error">half-open: the next checkout tries it{since}</strong>;
  }
  return (
    <strong class="error">
      open{since} after {breaker.consecutive_failures} failures in a row: checkouts skip it
    </strong>
  );
}

function EnvironmentRow(props: { name: string; environment: Environment; active: boolean; breaker?: Breaker }) {
  const { environment: env } = props;
  return (
    <tr>
      <th scope="row">
        {props.name}
        {props.active ? " (active)" : ""}
      </th>
      <td>{env.base_url ? <code>{env.base_url}</code> : "—"}</td>
      <td>
        <Secret set={env.api_key_configured} reference={env.api_key_ref} active={props.active} />
      </td>
      <td>
        <Secret set={env.client_key_configured} reference={env.client_key_ref} active={props.active} />
      </td>
      <td>
        <Secret set={env.webhook_secret_configured} reference={env.webhook_secret_ref} active={props.active} />
      </td>
      <td>
        <BreakerState breaker={props.breaker} />
      </td>
    </tr>
  );
}

export function GatewayCard(props: { settings: Settings }) {
  const { settings } = props;
  const name = GATEWAY_NAMES[settings.gateway];
  const heading = useId();
  const breakerIn = (environment: string) => settings.breakers.find((breaker) => breaker.environment === environment);
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{name}</h2>
      <dl>
        <dt>Active environment</dt>
        <dd>{settings.environment}</dd>
        <dt>Request timeout</dt>
        <dd>{settings.timeout_seconds} s</dd>
        <dt>Webhook signatures accepted for</dt>
        <dd>{settings.webhook_tolerance_seconds} s</dd>
        <dt>Prices</dt>
        <dd>{settings.tax_behavior === "inclusive" ? "include tax" : "exclude tax"}</dd>
      </dl>
      <TableBox
        label={`${name} environments`}
        columns={["Environment", "Base URL", "API key", "Client key", "Webhook secret", "Circuit breaker"]}
      >
        <tbody>
          <EnvironmentRow
            name="Sandbox"
            environment={settings.sandbox}
            active={settings.environment === "sandbox"}
            breaker={breakerIn("sandbox")}
          />
          <EnvironmentRow
            name="Live"
            environment={settings.live}
            active={settings.environment === "live"}
            breaker={breakerIn("live")}
          />
        </tbody>
      </TableBox>
      <ActionButton
        label="Test payment gateway connection"
        run={() => unwrap(api.POST(`/api/admin/${settings.gateway}/test-connection`))}
        describe={describeConnection}
      />
    </section>
  );
}
