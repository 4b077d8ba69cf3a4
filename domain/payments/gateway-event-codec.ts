import { PAYMENT_GATEWAYS } from "../catalog/product.ts";
import { isRecord } from "../shared/is-record.ts";
import { UnreadableGatewayEvent } from "./errors.ts";
import type { GatewayEvent } from "./gateway-event.ts";

/**
 * A normalized event as it is kept (the inbox's `event` column): plain JSON, so it reads back the
 * same from any JSON store. `format` names this layout: a change to `GatewayEvent` that stored
 * events can no longer be read with takes a new format, and the reader of the old one stays.
 */
const FORMAT = 1;

export interface StoredGatewayEvent {
  readonly format: typeof FORMAT;
  readonly event: Readonly<Record<string, unknown>>;
}

/**
 * What each field holds. Every value is already JSON (times are ISO 8601 strings, amounts integer
 * minor units far below 2^53), so the codec copies and checks, and converts nothing.
 */
type Field =
  | "text"
  | "nullable text"
  | "integer"
  /** Added to format 1 later: an event stored before it had none, and reads back as 0. */
  | "integer, 0 when absent"
  | "flag"
  | "optional nullable flag"
  | "optional nullable text"
  | "payment pointer"
  | "nullable subscription facts";
type Shape = Readonly<Record<string, Field>>;

const BASE: Shape = { gateway: "text", event_id: "text", livemode: "optional nullable flag" };
const CHARGED: Shape = {
  amount: "integer",
  tax: "integer",
  pre_tax: "integer",
  discount: "integer, 0 when absent",
  currency: "text",
};
const POINTER: Shape = {
  payment_id: "nullable text",
  invoice_id: "optional nullable text",
  charge_id: "optional nullable text",
  payment_intent_id: "optional nullable text",
};
const FACTS: Shape = { subscription_id: "text", trial_ends_at: "nullable text", current_period_end: "nullable text" };
const SUBSCRIPTION: Shape = { subscription_id: "text", order_id: "nullable text" };
const DISPUTE: Shape = {
  payment: "payment pointer",
  order_id: "nullable text",
  dispute_id: "text",
  amount: "integer",
  currency: "text",
};

/** Keyed by kind, so a new kind does not compile until it is given its fields here. */
const SHAPES: Readonly<Record<GatewayEvent["kind"], Shape>> = {
  paid: { ...CHARGED, order_id: "text", payment: "payment pointer", subscription: "nullable subscription facts" },
  renewed: {
    ...CHARGED,
    subscription_id: "text",
    order_id: "nullable text",
    payment: "payment pointer",
    current_period_end: "nullable text",
  },
  prorated: { ...CHARGED, subscription_id: "text", order_id: "nullable text", payment: "payment pointer" },
  cancelled: SUBSCRIPTION,
  subscription_updated: SUBSCRIPTION,
  trial_ending: { ...SUBSCRIPTION, trial_ends_at: "nullable text" },
  refunded: {
    payment: "payment pointer",
    order_id: "nullable text",
    refund_id: "nullable text",
    amount: "integer",
    cumulative: "flag",
    currency: "text",
  },
  dispute_opened: DISPUTE,
  dispute_won: DISPUTE,
  dispute_lost: DISPUTE,
  payment_failed: { order_id: "nullable text", subscription_id: "nullable text", reason: "text" },
  ignored: { type: "text", not_ours: "optional nullable text" },
};

function copyField(field: Field, value: unknown, path: string): unknown {
  const fail = (what: string): never => {
    throw new UnreadableGatewayEvent(`${path} is not ${what}`);
  };
  switch (field) {
    case "text":
      return typeof value === "string" ? value : fail("a string");
    case "nullable text":
    case "optional nullable text":
      return value === null || typeof value === "string" ? value : fail("a string or null");
    case "integer":
      return Number.isSafeInteger(value) ? value : fail("an integer amount");
    case "integer, 0 when absent":
      if (value === undefined) return 0;
      return Number.isSafeInteger(value) ? value : fail("an integer amount");
    case "flag":
      return typeof value === "boolean" ? value : fail("a boolean");
    case "optional nullable flag":
      return value === null || typeof value === "boolean" ? value : fail("a boolean or null");
    case "payment pointer":
      return isRecord(value) ? copyObject(POINTER, value, path) : fail("a payment pointer");
    case "nullable subscription facts":
      if (value === null) return null;
      return isRecord(value) ? copyObject(FACTS, value, path) : fail("subscription facts or null");
  }
}

/** Exactly the fields of `shape`: an unknown field is refused rather than lost on the way. */
function copyObject(shape: Shape, value: Readonly<Record<string, unknown>>, path: string) {
  for (const key of Object.keys(value)) {
    if (!(key in shape) && value[key] !== undefined) throw new UnreadableGatewayEvent(`${path}.${key} is not known`);
  }
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (field.startsWith("optional") && value[key] === undefined) continue;
    copy[key] = copyField(field, value[key], `${path}.${key}`);
  }
  return copy;
}

function copyEvent(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new UnreadableGatewayEvent("the event is not an object");
  const kind = value.kind;
  if (typeof kind !== "string" || !Object.hasOwn(SHAPES, kind)) {
    throw new UnreadableGatewayEvent(`kind ${JSON.stringify(kind)} is not an event kind`);
  }
  const copy = copyObject({ kind: "text", ...BASE, ...SHAPES[kind as GatewayEvent["kind"]] }, value, "event");
  if (!(PAYMENT_GATEWAYS as readonly unknown[]).includes(copy.gateway)) {
    throw new UnreadableGatewayEvent(`gateway ${JSON.stringify(copy.gateway)} is not a payment gateway`);
  }
  return copy;
}

/** The event as it is stored; throws `UnreadableGatewayEvent` for one that could not be read back as it is. */
export function encodeGatewayEvent(event: GatewayEvent): StoredGatewayEvent {
  return { format: FORMAT, event: copyEvent(event) };
}

/** A stored event back as the event it was; throws `UnreadableGatewayEvent` for anything else. */
export function decodeGatewayEvent(stored: unknown): GatewayEvent {
  if (!isRecord(stored) || stored.format !== FORMAT) {
    throw new UnreadableGatewayEvent(`not a stored event of format ${FORMAT}`);
  }
  return copyEvent(stored.event) as unknown as GatewayEvent;
}
