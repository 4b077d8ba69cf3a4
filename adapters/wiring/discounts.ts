import { makeManageDiscounts } from "../../application/discounts/manage-discounts.ts";
import { createPostgresDiscounts } from "../postgres/discounts.ts";
import type { Platform } from "./platform.ts";

/** Discount codes: what admins define. */
export function wireDiscounts({ sql, clock, config }: Platform) {
  return {
    useCases: makeManageDiscounts({ discounts: createPostgresDiscounts(sql), clock, currency: config.currency }),
  };
}

export type DiscountsFeature = ReturnType<typeof wireDiscounts>;
