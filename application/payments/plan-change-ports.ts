import type { BillingInterval } from "../../domain/catalog/pricing.ts";
import type { Variant } from "../../domain/catalog/variants.ts";
import type { TaxBehavior } from "../../domain/payments/payment.ts";

/**
 * When a plan change takes effect: `now` bills the difference at once (credit for the unused time
 * of the old price, the new price from now), `period_end` bills nothing now and the new price from
 * the end of the period already paid for.
 */
export type PlanChangeTiming = "now" | "period_end";

/** A subscription moved to another variant's price, named by the marketplace's terms. */
export interface PlanChange {
  readonly subscription_id: string;
  readonly order_id: string;
  readonly product_name: string;
  readonly variant: BillingInterval;
  /** Minor units per unit, in `currency`: what the new variant costs now. */
  readonly unit_amount: number;
  readonly currency: string;
  readonly tax_behavior: TaxBehavior;
  /** The synced gateway price for the variant when its terms are current; otherwise the price is given inline. */
  readonly gateway_price_id: string | null;
  readonly timing: PlanChangeTiming;
}

/** What the gateway says a plan change would bill; amounts in minor units with tax. */
export interface PlanChangePreview {
  /** Charged at once: the new price less the credit for the unused time (0 when the credit covers it). */
  readonly due_now: number;
  /** Each renewal's amount after the change. */
  readonly next_amount: number;
  /** When the first renewal at the new price is billed. */
  readonly next_billing_at: string | null;
  readonly currency: string;
}

/** What the catalog charges for a variant of a product now; undefined when the variant is not for sale. */
export interface VariantPrices {
  price(productId: string, variant: Variant): Promise<number | undefined>;
}
