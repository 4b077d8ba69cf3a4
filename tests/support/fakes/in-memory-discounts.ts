import type { AuditEntry } from "../../../application/audit/ports.ts";
import type { DiscountCodes, DiscountRepository } from "../../../application/discounts/ports.ts";
import type { NewJob } from "../../../application/shared/jobs.ts";
import type { DiscountWithRedemptions } from "../../../domain/discounts/discount.ts";

/** Discounts in memory, as the real table keeps them: one active discount per code, any case. */
export function createInMemoryDiscounts(clock: () => Date) {
  const discounts = new Map<string, DiscountWithRedemptions>();
  const audit: AuditEntry[] = [];
  /** What each disabling enqueued in its transaction. */
  const jobs: NewJob[] = [];
  const activeWithCode = (code: string) =>
    [...discounts.values()].find((d) => d.disabled_at === null && d.code.toLowerCase() === code.toLowerCase());
  const repository: DiscountRepository = {
    async insert(definition, entry) {
      if (activeWithCode(definition.code)) return undefined;
      const now = clock();
      const created = {
        ...definition,
        id: crypto.randomUUID(),
        disabled_at: null,
        created_at: now,
        updated_at: now,
        redemptions: 0,
      };
      discounts.set(created.id, created);
      audit.push(entry(created));
      return created;
    },
    find: async (id) => discounts.get(id),
    async list(filter, page) {
      const items = [...discounts.values()]
        .filter((d) => filter.state !== "active" || d.disabled_at === null)
        .filter((d) => filter.state !== "disabled" || d.disabled_at !== null)
        .filter((d) => !filter.code || d.code.toLowerCase() === filter.code.toLowerCase())
        .slice(0, page.limit);
      return { items, next_cursor: null };
    },
    async update(id, change, entry) {
      const current = discounts.get(id);
      if (!current || current.disabled_at) return undefined;
      const updated = { ...current, ...change, updated_at: clock() };
      discounts.set(id, updated);
      audit.push(entry);
      return updated;
    },
    async disable(id, at, entry, then) {
      const current = discounts.get(id);
      if (!current) return undefined;
      if (current.disabled_at) return current;
      const disabled = { ...current, disabled_at: at };
      discounts.set(id, disabled);
      audit.push(entry);
      jobs.push(then);
      return disabled;
    },
  };
  /** Holders are the redemptions counted (the fake has no open checkouts); paid customers are told. */
  const paidCustomers = new Set<string>();
  const codes: DiscountCodes = {
    async findByCode(code) {
      const found = activeWithCode(code);
      if (!found) return undefined;
      const { redemptions, ...discount } = found;
      return { discount, holders: redemptions };
    },
    hasPaidOrder: async (customerId) => paidCustomers.has(customerId),
  };
  return {
    ...repository,
    codes,
    customerPaid: (customerId: string) => paidCustomers.add(customerId),
    audit: () => [...audit],
    jobs: () => [...jobs],
    redeem(id: string, count: number) {
      const current = discounts.get(id);
      if (current) discounts.set(id, { ...current, redemptions: current.redemptions + count });
    },
  };
}
