/** The largest price, in minor units: far below 2^53, so any sum of prices stays an exact number. */
export const MAX_PRICE_MINOR = 1_000_000_000_00;

/** The one price range, for base prices and mapping prices alike: whole minor units from 0 to `MAX_PRICE_MINOR`. */
export function isValidPrice(price: number): boolean {
  return Number.isInteger(price) && price >= 0 && price <= MAX_PRICE_MINOR;
}
