import type { PaddleDiscount } from "./discounts.ts";

/** A transaction line as a discount sees it: its amount before tax, its quantity, and whether the discount covers it. */
export interface DiscountableLine {
  readonly amount: number;
  readonly quantity: number;
  readonly eligible: boolean;
}

const sum = (amounts: readonly number[]) => amounts.reduce((total, amount) => total + amount, 0);

/** A percentage given as text, in basis points ("12.5" is 1250), so the arithmetic stays in integers. */
const basisPoints = (percentage: string) => Math.round(Number(percentage) * 100);

/**
 * `total` split across lines in proportion to `amounts`: each share rounded down, then the cents
 * left over handed one by one to the lines with the largest remainders, the earlier line first on
 * a tie. The shares always add up to `total`.
 */
export function splitInProportion(total: number, amounts: readonly number[]): number[] {
  const whole = sum(amounts);
  if (whole === 0) return amounts.map(() => 0);
  const floors = amounts.map((amount) => Math.floor((total * amount) / whole));
  const remainders = amounts.map((amount, i) => total * amount - (floors[i] ?? 0) * whole);
  let left = total - sum(floors);
  const byRemainder = amounts.map((_, i) => i).sort((a, b) => (remainders[b] ?? 0) - (remainders[a] ?? 0) || a - b);
  for (const i of byRemainder) {
    if (left === 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left -= 1;
  }
  return floors;
}

/**
 * What `discount` takes from each line. A percentage is one figure on the whole subtotal of the
 * lines it covers, rounded half up (integer arithmetic on basis points), then split by
 * `splitInProportion`; a flat amount is capped at that subtotal and split the same way; a flat
 * amount per seat is taken per unit of each line, capped at the line.
 */
export function discountShares(discount: PaddleDiscount, lines: readonly DiscountableLine[]): number[] {
  const amounts = lines.map((line) => (line.eligible ? line.amount : 0));
  const amount = Number(discount.amount);
  if (discount.type === "flat_per_seat") {
    return lines.map((line, i) => Math.min(amount * line.quantity, amounts[i] ?? 0));
  }
  const subtotal = sum(amounts);
  const figure =
    discount.type === "percentage"
      ? Math.floor((subtotal * basisPoints(discount.amount) + 5000) / 10000)
      : Math.min(amount, subtotal);
  return splitInProportion(figure, amounts);
}
