/** One sandbox-wide tax rate, as a fraction (0.2 is 20 %). It starts at 0 so amounts stay as priced. */
export interface TaxRate {
  readonly rate: number;
}

export interface TaxSplit {
  /** The amount without tax. */
  readonly net: number;
  readonly tax: number;
  /** What the customer pays. */
  readonly gross: number;
}

/**
 * `amount` (minor units) split by `rate`: an inclusive amount holds its tax, an exclusive one gets it
 * added. Both gateways round each line to the minor unit, so callers split per line and sum.
 */
export function splitTax(amount: number, rate: number, inclusive: boolean): TaxSplit {
  if (inclusive) {
    const net = Math.round(amount / (1 + rate));
    return { net, tax: amount - net, gross: amount };
  }
  const tax = Math.round(amount * rate);
  return { net: amount, tax, gross: amount + tax };
}

export function sumSplits(splits: readonly TaxSplit[]): TaxSplit {
  return splits.reduce(
    (sum, split) => ({ net: sum.net + split.net, tax: sum.tax + split.tax, gross: sum.gross + split.gross }),
    {
      net: 0,
      tax: 0,
      gross: 0,
    },
  );
}
