import { useId } from "preact/hooks";
import type { Schemas } from "../../shared/api.ts";
import { formatMoney } from "../../shared/format.ts";

type Ledger = Schemas["RevenueLedger"];

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 8;
const TOP = 24;
const BOTTOM = 28;

/**
 * Gross and net revenue per interval as bars, drawn here (no chart library): the net bar over the
 * gross one, so what refunds and chargebacks took is the part of the gross bar left showing. The
 * image is titled and described for screen readers; every figure is also in the table beside it.
 */
export function RevenueChart(props: { ledger: Ledger; intervalName: string }) {
  const { ledger } = props;
  const id = useId();
  const money = (minor: number) => formatMoney(minor, ledger.currency);
  const top = Math.max(1, ...ledger.intervals.map((interval) => interval.gross));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - 2 * LEFT) / Math.max(1, ledger.intervals.length);
  const barWidth = Math.max(1, slot * 0.7);
  const heightOf = (minor: number) => (minor / top) * plotHeight;
  const first = ledger.intervals[0]?.start ?? "";
  const last = ledger.intervals.at(-1)?.start ?? "";
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>
          Revenue per {props.intervalName}, {ledger.currency} ({ledger.environment})
        </title>
        <desc id={`${id}-desc`}>
          Gross and net revenue in {ledger.intervals.length} intervals from {first} to {last}:{" "}
          {money(ledger.total.gross)} gross, {money(ledger.total.net)} net. The table below lists every interval.
        </desc>
        <line class="axis" x1={LEFT} x2={WIDTH - LEFT} y1={TOP} y2={TOP} />
        <text class="axis-label" x={LEFT} y={TOP - 8}>
          {money(top)}
        </text>
        <line class="axis" x1={LEFT} x2={WIDTH - LEFT} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        {ledger.intervals.map((interval, index) => {
          const x = LEFT + index * slot + (slot - barWidth) / 2;
          const base = HEIGHT - BOTTOM;
          return (
            <g key={interval.start}>
              <title>
                {interval.start}: {money(interval.gross)} gross, {money(interval.net)} net
              </title>
              <rect
                class="bar-gross"
                x={x}
                width={barWidth}
                y={base - heightOf(interval.gross)}
                height={heightOf(interval.gross)}
              />
              <rect
                class="bar-net"
                x={x}
                width={barWidth}
                y={base - heightOf(interval.net)}
                height={heightOf(interval.net)}
              />
            </g>
          );
        })}
        <text class="axis-label" x={LEFT} y={HEIGHT - 8}>
          {first}
        </text>
        <text class="axis-label" x={WIDTH - LEFT} y={HEIGHT - 8} text-anchor="end">
          {last}
        </text>
      </svg>
      <figcaption>
        <span class="key key-gross" aria-hidden="true" /> Gross <span class="key key-net" aria-hidden="true" /> Net
      </figcaption>
    </figure>
  );
}
