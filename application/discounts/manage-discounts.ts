import { type DiscountInput, type DiscountWithRedemptions, validateDiscount } from "../../domain/discounts/discount.ts";
import { discountState, validateDiscountChange } from "../../domain/discounts/discount-change.ts";
import { DiscountCodeTaken, DiscountDisabled, DiscountNotFound } from "../../domain/discounts/errors.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { PageRequest } from "../shared/ports.ts";
import { retireDiscountJob } from "./jobs.ts";
import type { DiscountFilter, DiscountRepository } from "./ports.ts";

const entry = (
  actorId: string,
  action: "discount.create" | "discount.update" | "discount.disable",
  discountId: string,
  summary: Readonly<Record<string, unknown>>,
): AuditEntry => ({ actor_id: actorId, action, target_type: "discount", target_id: discountId, summary });

/** The terms of a discount as the audit log keeps them: dates as text. */
const terms = (fields: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));

/**
 * An admin's discount codes: created with every field checked, changed only where no money
 * already promised moves, disabled for good. Each write is audited in its own transaction.
 */
export function makeManageDiscounts(deps: {
  readonly discounts: DiscountRepository;
  readonly clock: Clock;
  /** The marketplace's currency: a fixed discount is in it. */
  readonly currency: string;
}) {
  /** A discount with where it stands now. */
  const view = (discount: DiscountWithRedemptions) => ({ ...discount, state: discountState(discount, deps.clock()) });

  async function get(id: string): Promise<DiscountWithRedemptions> {
    const found = await deps.discounts.find(id);
    if (!found) throw new DiscountNotFound();
    return found;
  }

  return {
    getDiscount: async (id: string) => view(await get(id)),
    async listDiscounts(filter: DiscountFilter, page: PageRequest) {
      const found = await deps.discounts.list(filter, page);
      return { items: found.items.map(view), next_cursor: found.next_cursor };
    },

    async createDiscount(input: DiscountInput, actorId: string) {
      const definition = validateDiscount(input, deps.clock(), deps.currency);
      const created = await deps.discounts.insert(definition, (stored) =>
        entry(actorId, "discount.create", stored.id, terms({ ...definition })),
      );
      if (!created) throw new DiscountCodeTaken(definition.code);
      return view(created);
    },

    async updateDiscount(id: string, input: DiscountInput, actorId: string) {
      const current = await get(id);
      if (current.disabled_at) throw new DiscountDisabled();
      const change = validateDiscountChange(input, current, deps.clock());
      const changes = Object.fromEntries(
        Object.entries(terms(change)).map(([field, to]) => [
          field,
          { from: terms({ v: current[field as keyof typeof current] }).v ?? null, to },
        ]),
      );
      const updated = await deps.discounts.update(id, change, entry(actorId, "discount.update", id, { changes }));
      if (!updated) throw new DiscountDisabled();
      return view(updated);
    },

    /** Disabled, a code checks out no more; orders that redeemed it keep their terms. Idempotent. */
    async disableDiscount(id: string, actorId: string) {
      const current = await get(id);
      if (current.disabled_at) return view(current);
      const disabled = await deps.discounts.disable(
        id,
        deps.clock(),
        entry(actorId, "discount.disable", id, {}),
        retireDiscountJob({ discount_id: id }),
      );
      if (!disabled) throw new DiscountNotFound();
      return view(disabled);
    },
  };
}
