import type { SimClock } from "../../clock.ts";
import { newGatewayId } from "../ids.ts";
import { PaddleError } from "./errors.ts";
import { amount, currencyCode, customData, oneOf, onlyKnown, optionalText, text } from "./fields.ts";
import type { Json } from "./model.ts";

export const DISCOUNT_TYPES = ["flat", "flat_per_seat", "percentage"] as const;
const STATUSES = ["active", "archived"] as const;

/** A Paddle discount, as the API answers it (`IDiscountResponse`). */
export interface PaddleDiscount {
  readonly id: string;
  readonly status: "active" | "archived" | "expired" | "used";
  readonly description: string;
  readonly enabled_for_checkout: boolean;
  readonly code: string | null;
  readonly mode: "standard";
  readonly type: (typeof DISCOUNT_TYPES)[number];
  readonly amount: string;
  readonly currency_code: string | null;
  readonly recur: boolean;
  readonly maximum_recurring_intervals: number | null;
  readonly usage_limit: number | null;
  readonly restrict_to: string[] | null;
  readonly expires_at: string | null;
  readonly custom_data: Json | null;
  readonly times_used: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly import_meta: null;
  readonly discount_group_id: null;
  readonly discount_group: null;
}

const CREATE = [
  "amount",
  "description",
  "type",
  "enabled_for_checkout",
  "code",
  "mode",
  "currency_code",
  "recur",
  "maximum_recurring_intervals",
  "usage_limit",
  "restrict_to",
  "expires_at",
  "custom_data",
  "discount_group_id",
] as const;

/** A percentage from 0.01 to 100, two decimals at most, as text: Paddle's `amount` of a percentage discount. */
function percentage(value: unknown, field: string): string {
  const ok =
    typeof value === "string" && /^\d{1,3}(\.\d{1,2})?$/.test(value) && Number(value) > 0 && Number(value) <= 100;
  if (!ok) throw PaddleError.invalidField(field, 'must be a percentage from 0.01 to 100, e.g. "12.5"');
  return value;
}

const optionalCount = (value: unknown, field: string): number | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw PaddleError.invalidField(field, "must be a whole number of 1 or more");
  }
  return value;
};

const optionalBoolean = (value: unknown, field: string, fallback: boolean): boolean => {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw PaddleError.invalidField(field, "must be true or false");
  return value;
};

function expiresAt(value: unknown, field: string, now: Date): string | null {
  if (value === undefined || value === null) return null;
  const at = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw PaddleError.invalidField(field, "must be an RFC 3339 date and time");
  if (at <= now) throw PaddleError.invalidField(field, "must be in the future");
  return at.toISOString();
}

function restrictTo(value: unknown, field: string): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((id) => typeof id !== "string" || !/^(pro|pri)_[a-z0-9]{26}$/.test(id))) {
    throw PaddleError.invalidField(field, "must be a list of product and price ids");
  }
  return [...(value as string[])];
}

export type GatewayADiscounts = ReturnType<typeof createGatewayADiscounts>;

/**
 * The gateway_a sandbox's discounts, by Paddle's rules: `amount` a percentage (text, up to two
 * decimals) or minor units with `currency_code` for `flat`; `recur` with
 * `maximum_recurring_intervals` (null: every renewal); a `code` unique among active discounts;
 * archived (`PATCH status`) to stop new uses, while subscriptions keep it for their intervals.
 */
export function createGatewayADiscounts(clock: SimClock) {
  const discounts = new Map<string, PaddleDiscount>();
  const now = () => clock.now();
  /** Its status now: used up or expired once past its limit or date. */
  const current = (d: PaddleDiscount): PaddleDiscount => ({
    ...d,
    status:
      d.status === "archived"
        ? "archived"
        : d.expires_at !== null && new Date(d.expires_at) <= now()
          ? "expired"
          : d.usage_limit !== null && d.times_used >= d.usage_limit
            ? "used"
            : "active",
  });
  const codeTaken = (code: string, except?: string) =>
    [...discounts.values()].some(
      (d) => d.id !== except && d.status !== "archived" && d.code?.toLowerCase() === code.toLowerCase(),
    );

  function discount(id: string): PaddleDiscount {
    const found = discounts.get(id);
    if (!found) throw PaddleError.notFound(id);
    return current(found);
  }

  return {
    discount,
    /** The discount as it stands now, or undefined when there is none with that id. */
    find(id: string): PaddleDiscount | undefined {
      const found = discounts.get(id);
      return found && current(found);
    },
    create(body: Json): PaddleDiscount {
      onlyKnown(body, CREATE);
      const type = oneOf(body.type, "type", DISCOUNT_TYPES);
      const recur = optionalBoolean(body.recur, "recur", false);
      const code = optionalText(body.code, "code");
      if (code !== null && !/^[A-Za-z0-9]{1,32}$/.test(code)) {
        throw PaddleError.invalidField("code", "must be 1 to 32 letters and digits");
      }
      if (code !== null && codeTaken(code)) throw PaddleError.conflict(`a discount with the code ${code} exists`);
      const intervals = optionalCount(body.maximum_recurring_intervals, "maximum_recurring_intervals");
      if (intervals !== null && !recur) {
        throw PaddleError.invalidField("maximum_recurring_intervals", "is only for a discount that recurs");
      }
      const at = now().toISOString();
      const created: PaddleDiscount = {
        id: newGatewayId("dsc"),
        status: "active",
        description: text(body.description, "description"),
        enabled_for_checkout: optionalBoolean(body.enabled_for_checkout, "enabled_for_checkout", false),
        code,
        mode: "standard",
        type,
        amount: type === "percentage" ? percentage(body.amount, "amount") : amount(body.amount, "amount"),
        currency_code: type === "percentage" ? null : currencyCode(body.currency_code, "currency_code"),
        recur,
        maximum_recurring_intervals: intervals,
        usage_limit: optionalCount(body.usage_limit, "usage_limit"),
        restrict_to: restrictTo(body.restrict_to, "restrict_to"),
        expires_at: expiresAt(body.expires_at, "expires_at", now()),
        custom_data: customData(body.custom_data, "custom_data"),
        times_used: 0,
        created_at: at,
        updated_at: at,
        import_meta: null,
        discount_group_id: null,
        discount_group: null,
      };
      discounts.set(created.id, created);
      return current(created);
    },
    /** In creation order, as Paddle lists them; filtered by id, status and code. */
    list(filter: { ids?: readonly string[]; status?: readonly string[]; codes?: readonly string[] }) {
      return [...discounts.values()]
        .map(current)
        .filter((d) => !filter.ids || filter.ids.includes(d.id))
        .filter((d) => !filter.status || filter.status.includes(d.status))
        .filter((d) => !filter.codes || (d.code !== null && filter.codes.includes(d.code)));
    },
    /** Archiving (`status`), the limit, the date and the description may change; the money terms may not here. */
    update(id: string, body: Json): PaddleDiscount {
      const existing = discount(id);
      onlyKnown(body, [...CREATE, "status"]);
      for (const field of ["amount", "type", "currency_code", "recur", "maximum_recurring_intervals", "code"]) {
        if (field in body) throw PaddleError.invalidField(field, "cannot change in this sandbox; archive and create");
      }
      const updated: PaddleDiscount = {
        ...existing,
        ...(body.status === undefined ? {} : { status: oneOf(body.status, "status", STATUSES) }),
        ...(body.description === undefined ? {} : { description: text(body.description, "description") }),
        ...(body.usage_limit === undefined ? {} : { usage_limit: optionalCount(body.usage_limit, "usage_limit") }),
        ...(body.expires_at === undefined ? {} : { expires_at: expiresAt(body.expires_at, "expires_at", now()) }),
        ...(body.restrict_to === undefined ? {} : { restrict_to: restrictTo(body.restrict_to, "restrict_to") }),
        ...(body.custom_data === undefined ? {} : { custom_data: customData(body.custom_data, "custom_data") }),
        ...(body.enabled_for_checkout === undefined
          ? {}
          : { enabled_for_checkout: optionalBoolean(body.enabled_for_checkout, "enabled_for_checkout", false) }),
        updated_at: now().toISOString(),
      };
      discounts.set(id, updated);
      return current(updated);
    },
    /** A transaction used it once more. */
    use(id: string): PaddleDiscount {
      const found = discount(id);
      if (found.status !== "active")
        throw PaddleError.invalidField("discount_id", `the discount ${id} is ${found.status}`);
      const used = { ...found, times_used: found.times_used + 1 };
      discounts.set(id, used);
      return current(used);
    },
  };
}
