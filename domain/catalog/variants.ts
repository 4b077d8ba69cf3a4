/** What a product can be bought as: two one-time licenses, two subscription intervals. */
export const VARIANTS = ["regular", "extended", "monthly", "yearly"] as const;

export type Variant = (typeof VARIANTS)[number];
