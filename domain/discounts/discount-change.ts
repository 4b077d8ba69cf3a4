import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import {
  checkReach,
  type DiscountChange,
  type DiscountInput,
  type DiscountWithRedemptions,
  MUTABLE_FIELDS,
} from "./discount.ts";

/**
 * A change to a discount: only the fields of `MUTABLE_FIELDS`; any other is refused at its path
 * (`IMMUTABLE`), since customers may already hold the terms it set. Fields left out keep their value.
 */
export function validateDiscountChange(
  input: DiscountInput,
  current: DiscountWithRedemptions,
  now: Date,
): DiscountChange {
  const errors: FieldError[] = [];
  for (const field of Object.keys(input)) {
    if (!(MUTABLE_FIELDS as readonly string[]).includes(field)) {
      errors.push({
        path: `/${field}`,
        code: "IMMUTABLE",
        message: "cannot change once the discount exists; disable it and create another",
      });
    }
  }
  const merged: DiscountInput = {
    starts_at: current.starts_at?.toISOString() ?? null,
    expires_at: current.expires_at?.toISOString() ?? null,
    ...input,
  };
  const reach = checkReach(merged, now, errors, {
    redemptions: current.redemptions,
    expiryGiven: "expires_at" in input,
  });
  if (errors.length > 0) throw new ValidationFailed(errors, "The change is not valid.");
  const change: Record<string, unknown> = {};
  for (const field of MUTABLE_FIELDS) {
    if (!(field in input)) continue;
    change[field] =
      field === "first_purchase_only"
        ? (input.first_purchase_only ?? false)
        : (reach[field as keyof typeof reach] ?? null);
  }
  return change as DiscountChange;
}

/** Where a discount stands now: whether a checkout could redeem it, and if not, why. */
export type DiscountState = "active" | "scheduled" | "expired" | "used_up" | "disabled";

export function discountState(discount: DiscountWithRedemptions, now: Date): DiscountState {
  if (discount.disabled_at) return "disabled";
  if (discount.expires_at && discount.expires_at <= now) return "expired";
  if (discount.max_redemptions !== null && discount.redemptions >= discount.max_redemptions) return "used_up";
  if (discount.starts_at && discount.starts_at > now) return "scheduled";
  return "active";
}
