import type { Schemas } from "../../shared/api.ts";
import { formatMoney } from "../../shared/format.ts";
import { TableBox } from "../../shared/ui.tsx";
import { GATEWAY_NAMES } from "../choices.ts";

type Ledger = Schemas["RevenueLedger"];
type Figures = Schemas["RevenueFigures"];

export const FIGURE_NAMES = [
  ["gross", "Gross"],
  ["discounts", "Discounts"],
  ["tax", "Tax"],
  ["refunds", "Refunds"],
  ["charged_back", "Charged back"],
  ["net", "Net"],
] as const;

const COLUMNS = ["Payments", ...FIGURE_NAMES.map(([, name]) => name)];

/** One ledger's totals, as labelled figures. */
export function FigureList(props: { figures: Figures; currency: string; label: string }) {
  return (
    <dl class="figures" aria-label={props.label}>
      {FIGURE_NAMES.map(([key, name]) => (
        <div key={key}>
          <dt>{name}</dt>
          <dd>{formatMoney(props.figures[key], props.currency)}</dd>
        </div>
      ))}
    </dl>
  );
}

function FigureCells(props: { figures: Figures; currency: string }) {
  return (
    <>
      <td>{props.figures.payments}</td>
      {FIGURE_NAMES.map(([key]) => (
        <td key={key}>{formatMoney(props.figures[key], props.currency)}</td>
      ))}
    </>
  );
}

/** A ledger's figures per interval, by gateway and by product: the chart's table and its splits. */
export function RevenueTables(props: { ledger: Ledger; title: string }) {
  const { ledger, title } = props;
  return (
    <>
      <TableBox label={`${title} per interval`} columns={["Interval", ...COLUMNS]}>
        <tbody>
          {ledger.intervals.map((interval) => (
            <tr key={interval.start}>
              <th scope="row">{interval.start}</th>
              <FigureCells figures={interval} currency={ledger.currency} />
            </tr>
          ))}
        </tbody>
      </TableBox>
      <TableBox label={`${title} by gateway`} columns={["Gateway", ...COLUMNS]}>
        <tbody>
          {ledger.by_gateway.map((row) => (
            <tr key={row.gateway}>
              <th scope="row">{GATEWAY_NAMES[row.gateway]}</th>
              <FigureCells figures={row} currency={ledger.currency} />
            </tr>
          ))}
        </tbody>
      </TableBox>
      <TableBox label={`${title} by product`} columns={["Product", ...COLUMNS]}>
        <tbody>
          {ledger.by_product.map((row) => (
            <tr key={row.product_id}>
              <th scope="row">{row.product_name}</th>
              <FigureCells figures={row} currency={ledger.currency} />
            </tr>
          ))}
        </tbody>
      </TableBox>
    </>
  );
}
