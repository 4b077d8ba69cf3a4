import type { SubscriptionRecord, SubscriptionRepository } from "../../application/fulfillment/ports.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";

export const SUBSCRIPTION_COLUMNS = [
  "id",
  "order_id",
  "order_item_id",
  "customer_id",
  "product_id",
  "gateway",
  "gateway_subscription_id",
  "status",
  "billing_interval",
  "trial_ends_at",
  "current_period_end",
  "cancelled_at",
  "cancel_at_period_end",
  "pending_interval",
  "pending_at",
];

const addInterval = (from: Date, interval: "monthly" | "yearly") => {
  const next = new Date(from);
  if (interval === "monthly") next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
};

export function createPostgresSubscriptionRepository(sql: Queryable): SubscriptionRepository {
  const columns = columnList(sql, SUBSCRIPTION_COLUMNS);
  return {
    async upsertForItem({ order, item, facts, now }) {
      const interval = item.billing_interval ?? "monthly";
      const trialEnds = facts?.trial_ends_at
        ? new Date(facts.trial_ends_at)
        : item.trial_days
          ? new Date(now.getTime() + item.trial_days * 86_400_000)
          : null;
      // The gateway's period end wins; otherwise the period starts after the trial, or now.
      const periodEnd = facts?.current_period_end
        ? new Date(facts.current_period_end)
        : (trialEnds ?? addInterval(now, interval));
      const [row] = await sql<SubscriptionRecord[]>`
        insert into subscriptions (order_id, order_item_id, customer_id, product_id, gateway, gateway_subscription_id,
                                   status, billing_interval, trial_ends_at, current_period_end)
        values (${order.id}, ${item.id}, ${order.customer_id}, ${item.product_id}, ${order.payment_gateway},
                ${facts?.subscription_id ?? null}, ${trialEnds ? "trialing" : "active"}, ${interval}, ${trialEnds}, ${periodEnd})
        on conflict (order_item_id) do update
          set gateway_subscription_id = coalesce(subscriptions.gateway_subscription_id, excluded.gateway_subscription_id)
        returning ${columns}`;
      if (!row) throw new Error("subscription upsert returned no row");
      return row;
    },
    async find(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<SubscriptionRecord[]>`select ${columns} from subscriptions where id = ${id}`;
      return row;
    },
    async findForItem(orderItemId) {
      const [row] = await sql<
        SubscriptionRecord[]
      >`select ${columns} from subscriptions where order_item_id = ${orderItemId}`;
      return row;
    },
    async findByGatewayId(gateway, gatewaySubscriptionId) {
      return [
        ...(await sql<SubscriptionRecord[]>`
          select ${columns} from subscriptions
          where gateway = ${gateway} and gateway_subscription_id = ${gatewaySubscriptionId} for update`),
      ];
    },
    async update(id, change) {
      await sql`
        update subscriptions set
          status = coalesce(${change.status ?? null}, status),
          current_period_end = coalesce(${change.current_period_end ?? null}::timestamptz, current_period_end),
          trial_ends_at = coalesce(${change.trial_ends_at ?? null}::timestamptz, trial_ends_at),
          cancelled_at = coalesce(${change.cancelled_at ?? null}::timestamptz, cancelled_at),
          cancel_at_period_end = coalesce(${change.cancel_at_period_end ?? null}::boolean, cancel_at_period_end),
          billing_interval = coalesce(${change.billing_interval ?? null}, billing_interval),
          pending_interval = case when ${change.pending !== undefined} then ${change.pending?.interval ?? null}
                                  else pending_interval end,
          pending_at = case when ${change.pending !== undefined} then ${change.pending?.at ?? null}::timestamptz
                            else pending_at end,
          updated_at = now()
        where id = ${id}`;
    },
    // The fields a gateway's older answer could set back; a renewal moving the period end (which
    // only ever moves forward) leaves the mark as it is.
    async versionOf(gateway, gatewaySubscriptionId) {
      const rows = await sql<{ version: string }[]>`
        select id::text || ':' || md5(row(cancel_at_period_end, billing_interval, pending_interval, pending_at)::text)
               as version
        from subscriptions
        where gateway = ${gateway} and gateway_subscription_id = ${gatewaySubscriptionId}
        order by id for update`;
      return rows.map((row) => row.version).join(",");
    },
    async lapsed(now, graceHours, limit) {
      return [
        ...(await sql<SubscriptionRecord[]>`
          select ${columns} from subscriptions
          where status in ('active', 'trialing', 'past_due')
            and current_period_end < ${now}::timestamptz - make_interval(hours => ${graceHours})
          order by current_period_end limit ${limit}`),
      ];
    },
    async trialsEnding(now, withinHours, limit) {
      // The notice's key as noticeKey writes it (application/shared/subscription-notice.ts).
      return [
        ...(await sql<SubscriptionRecord[]>`
          select ${columns} from subscriptions s
          where status = 'trialing'
            and trial_ends_at > ${now}::timestamptz
            and trial_ends_at <= ${now}::timestamptz + make_interval(hours => ${withinHours})
            and not exists (
              select 1 from outbox o
              where o.once_key = 'subscription.trial_ending:' || s.gateway || ':'
                || coalesce(s.gateway_subscription_id, s.id::text) || ':trial')
          order by trial_ends_at limit ${limit}`),
      ];
    },
  };
}
