import type { ReportSource } from "../../application/reports/ports.ts";
import type { LedgerPayment } from "../../domain/reports/revenue.ts";
import type { SubscriptionFacts } from "../../domain/reports/subscription-metrics.ts";
import type { Queryable } from "./database.ts";

/** The ledger and the subscription records, read for reports. */
export function createPostgresReportSource(sql: Queryable): ReportSource {
  return {
    async paymentsBetween(from, until) {
      const rows = await sql<LedgerPayment[]>`
        select p.id, p.gateway, o.gateway_environment as environment, p.currency, p.kind, p.created_at,
               p.amount, p.discount, p.tax, p.refunded_amount, p.charged_back_amount,
               (select json_agg(json_build_object(
                          'product_id', i.product_id, 'product_name', i.product_name, 'due_today', i.due_today,
                          'amount', i.amount, 'recurring', i.billing_interval is not null) order by i.position)
                from order_items i where i.order_id = o.id) as items
        from payments p join orders o on o.id = p.order_id
        where p.created_at >= ${from} and p.created_at < ${until}
        order by p.created_at, p.id`;
      return rows.map((row) => ({ ...row, items: row.items ?? [] }));
    },

    // The price a subscription renews at: its item's, or after a plan change to another interval,
    // the product's active price for that interval times the item's quantity. A product that no
    // longer sells the new interval leaves the item's own price and interval.
    async subscriptionsAt(at) {
      return [
        ...(await sql<SubscriptionFacts[]>`
          select o.gateway_environment as environment, o.currency, s.status,
                 case when changed.price is null then i.billing_interval else s.billing_interval end as billing_interval,
                 coalesce(changed.price * i.quantity, i.amount) as price,
                 s.created_at, s.updated_at, s.cancelled_at, s.trial_ends_at
          from subscriptions s
          join order_items i on i.id = s.order_item_id
          join orders o on o.id = s.order_id
          left join lateral (
            select m.price from product_pricing_mappings m
            where m.product_id = s.product_id and m.payment_type = 'subscription'
              and m.billing_interval = s.billing_interval and m.is_active
            limit 1) changed on s.billing_interval is distinct from i.billing_interval
          where s.created_at <= ${at}`),
      ];
    },
  };
}
