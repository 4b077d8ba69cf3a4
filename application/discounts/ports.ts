import type {
  Discount,
  DiscountChange,
  DiscountDefinition,
  DiscountWithRedemptions,
} from "../../domain/discounts/discount.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { NewJob } from "../shared/jobs.ts";
import type { Page, PageRequest } from "../shared/ports.ts";

export interface DiscountFilter {
  /** `active`: not disabled (it may not have started, or have ended); `disabled`: disabled. */
  readonly state?: "active" | "disabled";
  /** The code, any case. */
  readonly code?: string;
  readonly product_id?: string;
}

/**
 * The discounts. Each write stores its audit entry in its own transaction; a code is unique among
 * the discounts not disabled, without regard to case.
 */
export interface DiscountRepository {
  /** Undefined when an active discount has the code already. */
  insert(
    definition: DiscountDefinition,
    audit: (created: DiscountWithRedemptions) => AuditEntry,
  ): Promise<DiscountWithRedemptions | undefined>;
  /** Undefined when there is no discount with the id. */
  find(id: string): Promise<DiscountWithRedemptions | undefined>;
  list(filter: DiscountFilter, page: PageRequest): Promise<Page<DiscountWithRedemptions>>;
  /** Applies the change to a discount not disabled; undefined when there is none. */
  update(id: string, change: DiscountChange, audit: AuditEntry): Promise<DiscountWithRedemptions | undefined>;
  /**
   * Disables it (once; a second time changes nothing), and in the same transaction enqueues `then`
   * (its retirement at the gateways); undefined when there is no discount with the id.
   */
  disable(id: string, at: Date, audit: AuditEntry, then: NewJob): Promise<DiscountWithRedemptions | undefined>;
}

/** A code as a checkout looks it up, with what its conditions need to know. */
export interface DiscountCodes {
  /**
   * The discount not disabled with this code (any case), with the paid orders and open checkouts
   * holding it; one query whether or not the code exists.
   */
  findByCode(code: string): Promise<{ readonly discount: Discount; readonly holders: number } | undefined>;
  /** Whether the customer has paid for an order before. */
  hasPaidOrder(customerId: string): Promise<boolean>;
}
