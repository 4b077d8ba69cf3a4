/**
 * Turns recorded exchanges into checks: one value against one official type each, deduplicated, plus
 * the findings no compiler is needed for (an unmapped route or event, a body where none belongs).
 */
import type { RecordedExchange } from "../../../provider-sim/gateways/exchange-recorder.ts";
import type { GatewayName } from "../../../provider-sim/gateways/webhook-deliverer.ts";
import { ERROR_TYPES, eventType, routeTypes } from "./type-map.ts";
import { nonSnakeKeys, paddleCamel, stripeScalars } from "./wire.ts";

export type Direction = "request" | "query" | "response" | "error" | "event";

export interface Check {
  readonly gateway: GatewayName;
  /** `POST /v1/checkout/sessions` or `event checkout.session.completed`. */
  readonly subject: string;
  readonly direction: Direction;
  readonly type: string;
  readonly value: unknown;
  /** The recorded exchanges (by `seq`) that produced this same value. */
  readonly seqs: number[];
}

export interface Finding {
  readonly gateway: GatewayName;
  readonly subject: string;
  readonly direction: Direction;
  readonly type: string;
  /** Where in the value: `customer_details.address`, or "" for the whole value. */
  readonly path: string;
  readonly message: string;
  readonly seqs: readonly number[];
}

export interface Plan {
  readonly checks: Check[];
  readonly findings: Finding[];
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0);

/**
 * What kinds of exchange a recording holds for one gateway: `POST /v1/refunds request`,
 * `GET /v1/products query`, `GET /v1/charges/{id} response` (or `error` when refused),
 * `event charge.refunded`.
 */
export function exchangeKinds(exchanges: readonly RecordedExchange[], gateway: GatewayName): Set<string> {
  return new Set(
    exchanges
      .filter((exchange) => exchange.gateway === gateway)
      .flatMap((exchange) =>
        exchange.kind === "webhook"
          ? [`event ${exchange.event_type}`]
          : [
              ...(isEmpty(exchange.request) ? [] : [`${exchange.method} ${exchange.route} request`]),
              ...(isEmpty(exchange.query) ? [] : [`${exchange.method} ${exchange.route} query`]),
              `${exchange.method} ${exchange.route} ${exchange.status < 400 ? "response" : "error"}`,
            ],
      ),
  );
}

export function planChecks(exchanges: readonly RecordedExchange[]): Plan {
  const checks = new Map<string, Check>();
  const findings: Finding[] = [];
  const check = (entry: Omit<Check, "seqs">, seq: number) => {
    const key = `${entry.type}\u0000${JSON.stringify(entry.value)}`;
    const known = checks.get(key);
    if (known) known.seqs.push(seq);
    else checks.set(key, { ...entry, seqs: [seq] });
  };
  const find = (finding: Omit<Finding, "path" | "seqs">, seq: number) =>
    findings.push({ ...finding, path: "", seqs: [seq] });

  for (const exchange of exchanges) {
    const { gateway, seq } = exchange;
    if (exchange.kind === "webhook") {
      const subject = `event ${exchange.event_type}`;
      const type = eventType(gateway, exchange.event_type);
      if (type) check({ gateway, subject, direction: "event", type, value: exchange.event }, seq);
      else
        find(
          {
            gateway,
            subject,
            direction: "event",
            type: "(none)",
            message: "no official type is mapped for this event",
          },
          seq,
        );
      continue;
    }
    const subject = `${exchange.method} ${exchange.route}`;
    const types = routeTypes(gateway, exchange.method, exchange.route);
    if (!types) {
      find(
        {
          gateway,
          subject,
          direction: "response",
          type: "(none)",
          message: "no official type is mapped for this route",
        },
        seq,
      );
      continue;
    }
    const toWire = (value: unknown) => (gateway === "gateway_b" ? stripeScalars(value) : paddleCamel(value));
    for (const [direction, value, type] of [
      ["request", exchange.request, types.request],
      ["query", exchange.query, types.query],
    ] as const) {
      if (isEmpty(value)) continue;
      if (type === undefined) {
        find(
          {
            gateway,
            subject,
            direction,
            type: "(none)",
            message: `a ${direction} was sent to a route that takes none`,
          },
          seq,
        );
        continue;
      }
      if (gateway === "gateway_a" && direction === "request") {
        for (const key of nonSnakeKeys(value)) {
          find({ gateway, subject, direction, type, message: `wire key '${key}' is not snake_case` }, seq);
        }
      }
      check({ gateway, subject, direction, type, value: toWire(value) }, seq);
    }
    if (exchange.status >= 400) {
      check(
        {
          gateway,
          subject: `${subject} ${exchange.status}`,
          direction: "error",
          type: ERROR_TYPES[gateway],
          value: exchange.response,
        },
        seq,
      );
    } else {
      check({ gateway, subject, direction: "response", type: types.response, value: exchange.response }, seq);
    }
  }
  return { checks: [...checks.values()], findings };
}
