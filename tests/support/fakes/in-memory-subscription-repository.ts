import type { SubscriptionRecord, SubscriptionRepository } from "../../../application/fulfillment/ports.ts";

const HOUR_MS = 3_600_000;

/**
 * Subscriptions in memory. `lapsed` is the real query's rule: a subscription still active,
 * trialing or past due whose `current_period_end` lies more than `graceHours` before `now`.
 * Only what the fulfillment and maintenance use cases call is implemented.
 */
export function createInMemorySubscriptionRepository() {
  let subscriptions = new Map<string, SubscriptionRecord>();

  function add(overrides: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
    const subscription: SubscriptionRecord = {
      id: crypto.randomUUID(),
      order_id: crypto.randomUUID(),
      order_item_id: crypto.randomUUID(),
      customer_id: crypto.randomUUID(),
      product_id: crypto.randomUUID(),
      gateway: "gateway_b",
      gateway_subscription_id: `sub_${crypto.randomUUID().slice(0, 8)}`,
      status: "active",
      billing_interval: "monthly",
      trial_ends_at: null,
      current_period_end: new Date("2026-02-01T00:00:00.000Z"),
      cancelled_at: null,
      cancel_at_period_end: false,
      pending_interval: null,
      pending_at: null,
      ...overrides,
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  const repository: SubscriptionRepository = {
    upsertForItem: async () => {
      throw new Error("upsertForItem is not part of this fake");
    },
    find: async (id) => subscriptions.get(id),
    findForItem: async (orderItemId) => [...subscriptions.values()].find((s) => s.order_item_id === orderItemId),
    findByGatewayId: async (gateway, id) =>
      [...subscriptions.values()].filter((s) => s.gateway === gateway && s.gateway_subscription_id === id),
    versionOf: async (gateway, id) =>
      [...subscriptions.values()]
        .filter((s) => s.gateway === gateway && s.gateway_subscription_id === id)
        .map((s) =>
          [s.id, s.cancel_at_period_end, s.billing_interval, s.pending_interval, s.pending_at?.toISOString()].join(":"),
        )
        .sort()
        .join(","),
    async update(id, { pending, ...change }) {
      const existing = subscriptions.get(id);
      if (!existing) return;
      const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
      const waiting =
        pending === undefined ? {} : { pending_interval: pending?.interval ?? null, pending_at: pending?.at ?? null };
      subscriptions.set(id, { ...existing, ...defined, ...waiting });
    },
    async trialsEnding(now, withinHours, limit) {
      const until = now.getTime() + withinHours * HOUR_MS;
      return [...subscriptions.values()]
        .filter(
          (s) =>
            s.status === "trialing" &&
            s.trial_ends_at !== null &&
            s.trial_ends_at.getTime() > now.getTime() &&
            s.trial_ends_at.getTime() <= until,
        )
        .sort((a, b) => (a.trial_ends_at?.getTime() ?? 0) - (b.trial_ends_at?.getTime() ?? 0))
        .slice(0, limit);
    },
    async lapsed(now, graceHours, limit) {
      const cutoff = now.getTime() - graceHours * HOUR_MS;
      return [...subscriptions.values()]
        .filter(
          (s) =>
            ["active", "trialing", "past_due"].includes(s.status) &&
            s.current_period_end !== null &&
            s.current_period_end.getTime() < cutoff,
        )
        .sort((a, b) => (a.current_period_end?.getTime() ?? 0) - (b.current_period_end?.getTime() ?? 0))
        .slice(0, limit);
    },
  };

  return {
    ...repository,
    add,
    get(id: string): SubscriptionRecord {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`no subscription ${id}`);
      return subscription;
    },
    snapshot() {
      const saved = new Map(subscriptions);
      return () => {
        subscriptions = saved;
      };
    },
  };
}

export type InMemorySubscriptionRepository = ReturnType<typeof createInMemorySubscriptionRepository>;
