import type { SimClock } from "../../clock.ts";
import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import { currency, metadata, oneOf, optionalInteger, optionalString, rejectUnknown } from "./params.ts";

export const COUPON_DURATIONS = ["once", "repeating", "forever"] as const;

/** A Stripe coupon, as the API answers it (`Stripe.Coupon`). */
export interface StripeCoupon {
  readonly id: string;
  readonly object: "coupon";
  readonly amount_off: number | null;
  readonly created: number;
  readonly currency: string | null;
  readonly duration: (typeof COUPON_DURATIONS)[number];
  readonly duration_in_months: number | null;
  readonly livemode: false;
  readonly max_redemptions: number | null;
  readonly metadata: Record<string, string>;
  readonly name: string | null;
  readonly percent_off: number | null;
  readonly redeem_by: number | null;
  readonly times_redeemed: number;
  readonly valid: boolean;
}

const CREATE_PARAMS = [
  "id",
  "name",
  "percent_off",
  "amount_off",
  "currency",
  "duration",
  "duration_in_months",
  "max_redemptions",
  "redeem_by",
  "metadata",
];

/** `12.5` → 12.5: a percentage above 0 and at most 100, with two decimals at most, as Stripe takes it. */
function percentOff(value: FormObject[string] | undefined): number | null {
  if (value === undefined) return null;
  const percent = typeof value === "string" && /^\d{1,3}(\.\d{1,2})?$/.test(value) ? Number(value) : Number.NaN;
  if (!(percent > 0 && percent <= 100)) {
    throw StripeError.invalid("percent_off", "must be a number greater than 0 and at most 100");
  }
  return percent;
}

/**
 * The gateway_b sandbox's coupons: created with Stripe's rules (one of `percent_off` or
 * `amount_off` with its `currency`; `duration_in_months` exactly when `repeating`; an id of one's
 * own, unique), read, listed newest first, and deleted, after which new redemptions are refused
 * while subscriptions already discounted keep their discount.
 */
export function createGatewayBCoupons(clock: SimClock) {
  const coupons = new Map<string, StripeCoupon>();
  const now = () => Math.floor(clock.now().getTime() / 1000);
  /** Valid now: not past `redeem_by`, nor out of redemptions. */
  const current = (coupon: StripeCoupon): StripeCoupon => ({
    ...coupon,
    valid:
      (coupon.redeem_by === null || coupon.redeem_by > now()) &&
      (coupon.max_redemptions === null || coupon.times_redeemed < coupon.max_redemptions),
  });

  function coupon(id: string, param = "id"): StripeCoupon {
    const found = coupons.get(id);
    if (!found) throw StripeError.noSuch("coupon", id, param);
    return current(found);
  }

  return {
    coupon,
    create(form: FormObject): StripeCoupon {
      rejectUnknown(form, CREATE_PARAMS);
      const percent = percentOff(form.percent_off);
      const amount = optionalInteger(form.amount_off, "amount_off", 1, 99_999_999);
      if ((percent === null) === (amount === null)) {
        throw StripeError.invalid("percent_off", "exactly one of percent_off and amount_off must be given");
      }
      if (amount !== null && form.currency === undefined) throw StripeError.missing("currency");
      const duration = form.duration === undefined ? "once" : oneOf(form.duration, "duration", COUPON_DURATIONS);
      const months = optionalInteger(form.duration_in_months, "duration_in_months", 1, 1200);
      if ((duration === "repeating") !== (months !== null)) {
        throw StripeError.invalid("duration_in_months", "is required for, and only for, a repeating coupon");
      }
      const redeemBy = optionalInteger(form.redeem_by, "redeem_by", 1, 253_402_300_799);
      if (redeemBy !== null && redeemBy <= now()) throw StripeError.invalid("redeem_by", "must be in the future");
      const id = optionalString(form.id, "id", 200) ?? newGatewayId("").replace(/^_/, "").slice(0, 8);
      if (coupons.has(id)) {
        throw new StripeError(400, "invalid_request_error", "Coupon already exists.", "resource_already_exists", "id");
      }
      const created: StripeCoupon = {
        id,
        object: "coupon",
        amount_off: amount,
        created: now(),
        currency: amount === null ? null : currency(form.currency, "currency"),
        duration,
        duration_in_months: months,
        livemode: false,
        max_redemptions: optionalInteger(form.max_redemptions, "max_redemptions", 1, 1_000_000_000),
        metadata: metadata(form.metadata, "metadata"),
        name: optionalString(form.name, "name", 40),
        percent_off: percent,
        redeem_by: redeemBy,
        times_redeemed: 0,
        valid: true,
      };
      coupons.set(id, created);
      return current(created);
    },
    /** Newest first, Stripe's list envelope. */
    list(limit: number) {
      const all = [...coupons.values()].reverse().map(current);
      return { object: "list", url: "/v1/coupons", has_more: all.length > limit, data: all.slice(0, limit) };
    },
    delete(id: string) {
      coupon(id);
      coupons.delete(id);
      return { id, object: "coupon", deleted: true };
    },
    /** A checkout or a renewal used it once more. */
    redeem(id: string): StripeCoupon {
      const found = coupon(id, "coupon");
      if (!found.valid) throw StripeError.invalid("coupon", `the coupon ${id} cannot be redeemed any more`);
      const redeemed = { ...found, times_redeemed: found.times_redeemed + 1 };
      coupons.set(id, redeemed);
      return current(redeemed);
    },
  };
}
