import { unwrap } from "../../shared/api.ts";
import { formatTime, humanize, safeHref } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { Loaded, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";

/** The provider's answers are passed through untyped: read what is there, show a dash for the rest. */
type Row = Readonly<Record<string, unknown>>;
const rowsOf = (answer: unknown): Row[] => {
  const items = (answer as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items.filter((item): item is Row => typeof item === "object" && item !== null) : [];
};
const text = (value: unknown) =>
  Array.isArray(value) ? value.join(", ") : value === undefined || value === null ? "—" : String(value);

/** A column: the key it shows, its title, and the key of an address to link the value to, if any. */
type Column = readonly [key: string, title: string, link?: string];

function Cell(props: { row: Row; column: Column }) {
  const [key, , link] = props.column;
  const address = link ? props.row[link] : undefined;
  const target = typeof address === "string" ? safeHref(address) : undefined;
  return <td>{target ? <a href={target}>{text(props.row[key])}</a> : text(props.row[key])}</td>;
}

/** What the provider reports for this product, through its management API. */
export function ProviderPanel(props: { id: string }) {
  const path = { params: { path: { id: props.id } } };
  const overview = useLoad(() => unwrap(api.GET("/api/admin/products/{id}/provider/overview", path)), [props.id]);
  const tenants = useLoad(() => unwrap(api.GET("/api/admin/products/{id}/provider/tenants", path)), [props.id]);
  const plans = useLoad(() => unwrap(api.GET("/api/admin/products/{id}/provider/plans", path)), [props.id]);
  return (
    <>
      <h3>Overview</h3>
      <Loaded result={overview.result}>{(answer) => <Overview answer={answer as Row | null} />}</Loaded>
      <h3>Tenants</h3>
      <Loaded result={tenants.result}>
        {(answer) => (
          <Table
            label="Provider tenants"
            empty="The provider has no tenants yet."
            rows={rowsOf(answer)}
            columns={[
              ["external_tenant_id", "Tenant", "workspace_url"],
              ["status", "Status"],
              ["plan", "Plan"],
              ["order_id", "Order"],
            ]}
          />
        )}
      </Loaded>
      <h3>Plans</h3>
      <Loaded result={plans.result}>
        {(answer) => (
          <Table
            label="Provider plans"
            empty="The provider offers no plans."
            rows={rowsOf(answer)}
            columns={[
              ["id", "Plan"],
              ["name", "Name"],
              ["billing_intervals", "Billed"],
            ]}
          />
        )}
      </Loaded>
    </>
  );
}

function Overview(props: { answer: Row | null }) {
  const byStatus = props.answer?.tenants_by_status;
  const counts = typeof byStatus === "object" && byStatus !== null ? Object.entries(byStatus) : [];
  const generated = props.answer?.generated_at;
  const columns: [string, string][] = [
    ["Tenants", text(props.answer?.tenants_total)],
    ...counts.map(([status, count]): [string, string] => [humanize(status), text(count)]),
    ["Plans", text(props.answer?.plans_total)],
    ["As of", typeof generated === "string" ? formatTime(generated) : "—"],
  ];
  return (
    <TableBox label="Provider overview" columns={columns.map(([title]) => title)}>
      <tbody>
        <tr>
          {columns.map(([title, value]) => (
            <td key={title}>{value}</td>
          ))}
        </tr>
      </tbody>
    </TableBox>
  );
}

function Table(props: { label: string; empty: string; rows: Row[]; columns: readonly Column[] }) {
  if (props.rows.length === 0) return <p>{props.empty}</p>;
  return (
    <TableBox label={props.label} columns={props.columns.map(([, title]) => title)}>
      <tbody>
        {props.rows.map((row, i) => (
          <tr key={i}>
            {props.columns.map((column) => (
              <Cell key={column[0]} row={row} column={column} />
            ))}
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
