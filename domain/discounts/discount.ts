import { MAX_PRICE_MINOR } from "../catalog/price-range.ts";
import { VARIANTS, type Variant } from "../catalog/variants.ts";
import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";

export const DISCOUNT_TYPES = ["percent", "fixed"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** How many payments a discount lowers: the first, the first `duration_in_months` months, or all. */
export const DISCOUNT_DURATIONS = ["once", "repeating", "forever"] as const;
export type DiscountDuration = (typeof DISCOUNT_DURATIONS)[number];

/** A percentage is kept in basis points: 10,000 is the whole price. */
export const WHOLE_PRICE_BASIS_POINTS = 10_000;

export const DISCOUNT_LIMITS = {
  code: { min: 3, max: 40 },
  months: 36,
  redemptions: 1_000_000_000,
  products: 100,
} as const;

/** Letters, digits, `-` and `_`: what a customer can type and a gateway accepts as a code. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an admin defines. The money terms (code to duration) never change once created. */
export interface DiscountDefinition {
  /** As the admin wrote it; compared without regard to case. */
  readonly code: string;
  readonly type: DiscountType;
  /** Basis points for `percent`, minor units of `currency` for `fixed`. */
  readonly amount: number;
  /** The marketplace's currency for `fixed`; null for `percent`. */
  readonly currency: string | null;
  readonly duration: DiscountDuration;
  readonly duration_in_months: number | null;
  readonly max_redemptions: number | null;
  readonly starts_at: Date | null;
  readonly expires_at: Date | null;
  /** The products it applies to; empty: every product. */
  readonly product_ids: readonly string[];
  /** The variants it applies to; empty: every variant. */
  readonly variants: readonly Variant[];
  readonly first_purchase_only: boolean;
}

export interface Discount extends DiscountDefinition {
  readonly id: string;
  readonly disabled_at: Date | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** A discount with how many paid orders redeemed it. */
export interface DiscountWithRedemptions extends Discount {
  readonly redemptions: number;
}

/** The fields an admin may change after creation: none that alters money already promised. */
export const MUTABLE_FIELDS = [
  "max_redemptions",
  "starts_at",
  "expires_at",
  "product_ids",
  "variants",
  "first_purchase_only",
] as const;
export type DiscountChange = Partial<Pick<DiscountDefinition, (typeof MUTABLE_FIELDS)[number]>>;

/** A request's body, before validation: dates as ISO text. */
export interface DiscountInput {
  readonly code?: string;
  readonly type?: string;
  readonly amount?: number;
  readonly duration?: string;
  readonly duration_in_months?: number | null;
  readonly max_redemptions?: number | null;
  readonly starts_at?: string | null;
  readonly expires_at?: string | null;
  readonly product_ids?: readonly string[];
  readonly variants?: readonly string[];
  readonly first_purchase_only?: boolean;
}

const err = (path: string, code: string, message: string): FieldError => ({ path, code, message });

function instant(value: string | null | undefined, path: string, errors: FieldError[]): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    errors.push(err(path, "INVALID_DATE_TIME", "must be an ISO 8601 date and time"));
    return null;
  }
  return at;
}

function listOf<T extends string>(
  values: readonly string[] | undefined,
  path: string,
  valid: (value: string) => value is T,
  message: string,
  errors: FieldError[],
): T[] {
  const list = values ?? [];
  if (list.length > DISCOUNT_LIMITS.products) {
    errors.push(err(path, "TOO_MANY", `must hold at most ${DISCOUNT_LIMITS.products} entries`));
  }
  list.forEach((value, i) => {
    if (!valid(value)) errors.push(err(`${path}/${i}`, "INVALID_VALUE", message));
    else if (list.indexOf(value) !== i) errors.push(err(`${path}/${i}`, "DUPLICATE", "is listed twice"));
  });
  return list.filter(valid);
}

const isUuid = (value: string): value is string => UUID.test(value);
const isVariant = (value: string): value is Variant => (VARIANTS as readonly string[]).includes(value);

/** The window and the reach: what both a new discount and a change check. */
export function checkReach(
  input: DiscountInput,
  now: Date,
  errors: FieldError[],
  context: { readonly redemptions: number; readonly expiryGiven: boolean },
): Omit<DiscountChange, "first_purchase_only"> {
  const { redemptions } = context;
  const starts = instant(input.starts_at, "/starts_at", errors);
  const expires = instant(input.expires_at, "/expires_at", errors);
  if (expires && context.expiryGiven && expires <= now) {
    errors.push(err("/expires_at", "IN_THE_PAST", "must be in the future"));
  }
  if (starts && expires && expires <= starts) {
    errors.push(err("/expires_at", "BEFORE_START", "must be later than starts_at"));
  }
  const max = input.max_redemptions;
  if (max !== undefined && max !== null) {
    if (!Number.isInteger(max) || max < 1 || max > DISCOUNT_LIMITS.redemptions) {
      errors.push(
        err("/max_redemptions", "OUT_OF_RANGE", `must be a whole number from 1 to ${DISCOUNT_LIMITS.redemptions}`),
      );
    } else if (max < redemptions) {
      errors.push(err("/max_redemptions", "BELOW_REDEMPTIONS", `must be at least the ${redemptions} redemptions made`));
    }
  }
  return {
    starts_at: starts,
    expires_at: expires,
    max_redemptions: max ?? null,
    product_ids: listOf(input.product_ids, "/product_ids", isUuid, "must be a product id", errors),
    variants: listOf(input.variants, "/variants", isVariant, `must be one of ${VARIANTS.join(", ")}`, errors),
  };
}

/**
 * A new discount, checked field by field (every problem at once, as products are): a code of 3 to
 * 40 letters, digits, `-` and `_`; a percentage from 0.01 % to 100 % in basis points, or a fixed
 * amount of the marketplace's `currency`; `duration_in_months` exactly when `repeating`; a window
 * that ends in the future, after it starts.
 */
export function validateDiscount(input: DiscountInput, now: Date, currency: string): DiscountDefinition {
  const errors: FieldError[] = [];
  const code = input.code ?? "";
  const { min, max } = DISCOUNT_LIMITS.code;
  if (code.length < min || code.length > max || !CODE.test(code)) {
    errors.push(
      err(
        "/code",
        "INVALID_CODE",
        `must be ${min} to ${max} letters, digits, - and _, starting with a letter or digit`,
      ),
    );
  }
  const type = input.type;
  if (!type || !(DISCOUNT_TYPES as readonly string[]).includes(type)) {
    errors.push(err("/type", "INVALID_ENUM", `must be one of ${DISCOUNT_TYPES.join(", ")}`));
  }
  const amount = input.amount ?? 0;
  const top = type === "percent" ? WHOLE_PRICE_BASIS_POINTS : MAX_PRICE_MINOR;
  if (!Number.isInteger(amount) || amount < 1 || amount > top) {
    errors.push(
      err(
        "/amount",
        "OUT_OF_RANGE",
        type === "percent"
          ? `must be basis points from 1 to ${WHOLE_PRICE_BASIS_POINTS} (100 %)`
          : `must be minor units of ${currency} from 1 to ${MAX_PRICE_MINOR}`,
      ),
    );
  }
  const duration = input.duration;
  if (!duration || !(DISCOUNT_DURATIONS as readonly string[]).includes(duration)) {
    errors.push(err("/duration", "INVALID_ENUM", `must be one of ${DISCOUNT_DURATIONS.join(", ")}`));
  }
  const months = input.duration_in_months ?? null;
  if (duration === "repeating") {
    if (months === null || !Number.isInteger(months) || months < 1 || months > DISCOUNT_LIMITS.months) {
      errors.push(
        err(
          "/duration_in_months",
          "OUT_OF_RANGE",
          `must be a whole number of months from 1 to ${DISCOUNT_LIMITS.months}`,
        ),
      );
    }
  } else if (months !== null) {
    errors.push(err("/duration_in_months", "NOT_ALLOWED", "is only for a repeating discount"));
  }
  const reach = checkReach(input, now, errors, { redemptions: 0, expiryGiven: true });
  if (errors.length > 0) throw new ValidationFailed(errors, "The discount is not valid.");
  return {
    code,
    type: type as DiscountType,
    amount,
    currency: type === "fixed" ? currency : null,
    duration: duration as DiscountDuration,
    duration_in_months: duration === "repeating" ? months : null,
    max_redemptions: reach.max_redemptions ?? null,
    starts_at: reach.starts_at ?? null,
    expires_at: reach.expires_at ?? null,
    product_ids: reach.product_ids ?? [],
    variants: reach.variants ?? [],
    first_purchase_only: input.first_purchase_only ?? false,
  };
}
