import { retireDiscountJob } from "../../application/discounts/jobs.ts";
import { makeManageDiscounts } from "../../application/discounts/manage-discounts.ts";
import { makeRetireDiscount } from "../../application/discounts/retire-discount.ts";
import { createPostgresDiscounts } from "../postgres/discounts.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { PaymentsFeature } from "./payments.ts";
import type { Platform } from "./platform.ts";

/** Discount codes: what admins define. */
export function wireDiscounts(
  { sql, clock, config, jobsFor, logger }: Platform,
  { gateways }: { readonly gateways: PaymentsFeature["gateways"] },
) {
  return {
    useCases: makeManageDiscounts({
      discounts: createPostgresDiscounts(sql, jobsFor),
      clock,
      currency: config.currency,
    }),
    jobs: { [retireDiscountJob.kind]: makeRetireDiscount({ gateways, log: logger }) } satisfies FeatureJobs,
  };
}

export type DiscountsFeature = ReturnType<typeof wireDiscounts>;
