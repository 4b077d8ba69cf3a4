import type { SimClock } from "./clock.ts";
import { onboardingConflict, tenantNotFound } from "./errors.ts";
import { deriveIdentifiers } from "./identifiers.ts";
import { type BillingInterval, type Plan, resolvePlan } from "./plans.ts";
import {
  cancelled,
  isSameOnboarding,
  newTenant,
  type OnboardRequest,
  suspended,
  TENANT_STATUSES,
  type TenantRecord,
  type TenantStatus,
  upgraded,
} from "./tenant.ts";
import { decodeTenantCursor, encodeTenantCursor, isAfterCursor, newestFirst } from "./tenant-cursor.ts";

export interface TenantPageRequest {
  readonly status?: TenantStatus | undefined;
  readonly cursor?: string | undefined;
  readonly limit: number;
}

export interface TenantStore {
  readonly plans: readonly Plan[];
  /** Idempotent on (order_id, order_item_id); synchronous so concurrent calls cannot both create. */
  onboard(input: OnboardRequest): { readonly tenant: TenantRecord; readonly created: boolean };
  byReference(reference: string): TenantRecord;
  byTenantId(tenantId: string): TenantRecord;
  suspend(reference: string): TenantRecord;
  cancel(reference: string): TenantRecord;
  upgrade(reference: string, plan: string, interval?: BillingInterval, paidUntil?: Date): TenantRecord;
  list(page: TenantPageRequest): { readonly items: TenantRecord[]; readonly next_cursor: string | null };
  countByStatus(): Record<TenantStatus, number>;
  all(): TenantRecord[];
  save(record: TenantRecord): void;
  clear(): void;
}

/** The simulator's tenants, in memory, keyed by the external reference id. */
export function createTenantStore(deps: { readonly plans: readonly Plan[]; readonly clock: SimClock }): TenantStore {
  const byReference = new Map<string, TenantRecord>();
  const referenceByTenant = new Map<string, string>();

  const find = (reference: string) => {
    const record = byReference.get(reference);
    if (!record) throw tenantNotFound(reference);
    return record;
  };
  const save = (record: TenantRecord) => {
    byReference.set(record.ids.reference, record);
    referenceByTenant.set(record.ids.tenant, record.ids.reference);
    return record;
  };

  return {
    plans: deps.plans,
    onboard(input) {
      const { interval } = resolvePlan(deps.plans, input.plan, input.billing_interval, "/billing_interval");
      const ids = deriveIdentifiers(input.order_id, input.order_item_id);
      const existing = byReference.get(ids.reference);
      if (existing) {
        if (!isSameOnboarding(existing, input, interval)) throw onboardingConflict();
        return { tenant: existing, created: false };
      }
      return { tenant: save(newTenant(input, ids, interval, deps.clock.now())), created: true };
    },
    byReference: find,
    byTenantId(tenantId) {
      const reference = referenceByTenant.get(tenantId);
      if (reference === undefined) throw tenantNotFound(tenantId);
      return find(reference);
    },
    suspend: (reference) => save(suspended(find(reference), deps.clock.now())),
    cancel: (reference) => save(cancelled(find(reference), deps.clock.now())),
    upgrade(reference, plan, interval, paidUntil) {
      const record = find(reference);
      resolvePlan(deps.plans, plan, interval ?? record.billing_interval, interval ? "/billing_interval" : "/plan");
      return save(upgraded(record, plan, deps.clock.now(), interval, paidUntil));
    },
    list({ status, cursor, limit }) {
      const after = cursor === undefined ? undefined : decodeTenantCursor(cursor);
      const matching = [...byReference.values()]
        .filter(
          (record) => (status === undefined || record.status === status) && (!after || isAfterCursor(record, after)),
        )
        .sort(newestFirst);
      const items = matching.slice(0, limit);
      const last = items.at(-1);
      return { items, next_cursor: matching.length > limit && last ? encodeTenantCursor(last) : null };
    },
    countByStatus() {
      const counts = Object.fromEntries(TENANT_STATUSES.map((status) => [status, 0])) as Record<TenantStatus, number>;
      for (const record of byReference.values()) counts[record.status] += 1;
      return counts;
    },
    all: () => [...byReference.values()],
    save(record) {
      save(record);
    },
    clear() {
      byReference.clear();
      referenceByTenant.clear();
    },
  };
}
