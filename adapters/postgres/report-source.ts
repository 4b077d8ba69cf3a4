import type postgres from "postgres";
import type { ReportSource } from "../../application/reports/ports.ts";
import type { LedgerPayment, OneProductRevenue, PaidItem } from "../../domain/reports/product-shares.ts";
import type { RevenueBucket } from "../../domain/reports/revenue.ts";
import type { SubscriptionGroup } from "../../domain/reports/subscription-metrics.ts";

/** Payments read per round trip when splitting them by product: a batch costs a few milliseconds. */
const PAYMENT_BATCH = 2000;

/** How many products a payment's order bought. */
const productsBought = (sql: postgres.TransactionSql) =>
  sql`(select count(distinct i.product_id) from order_items i where i.order_id = p.order_id)`;

/** The items of some orders, in their order, by order: one query for a page of payments. */
async function itemsOf(sql: postgres.TransactionSql, orderIds: readonly string[]) {
  const rows = await sql<(PaidItem & { order_id: string })[]>`
    select i.order_id, i.product_id, i.product_name, i.due_today, i.amount, i.billing_interval is not null as recurring
    from order_items i where i.order_id = any(${sql.array(orderIds as string[])}::uuid[])
    order by i.order_id, i.position`;
  const items = new Map<string, PaidItem[]>();
  for (const { order_id, ...item } of rows) {
    const list = items.get(order_id);
    if (list) list.push(item);
    else items.set(order_id, [item]);
  }
  return items;
}

/** The ledger and the subscription records, read for reports. */
export function createPostgresReportSource(sql: postgres.Sql): ReportSource {
  return {
    // One snapshot for both reads, so the products add up to the totals even while payments arrive.
    async revenueBetween(range, products) {
      return sql.begin("isolation level repeatable read read only", async (tx) => {
        // Intervals are the UTC day, the ISO week (from Monday) or month a payment was recorded in.
        const buckets = await tx<RevenueBucket[]>`
          select o.gateway_environment as environment, p.currency, p.gateway,
                 date_trunc(${range.interval}, p.created_at at time zone 'UTC') at time zone 'UTC' as start,
                 count(*)::int as payments, sum(p.amount)::float8 as gross, sum(p.discount)::float8 as discounts,
                 sum(p.tax)::float8 as tax, sum(p.refunded_amount)::float8 as refunds,
                 sum(p.charged_back_amount)::float8 as charged_back
          from payments p join orders o on o.id = p.order_id
          where p.created_at >= ${range.from} and p.created_at < ${range.until}
          group by 1, 2, 3, 4`;
        // Most orders buy one product: each of their payments goes to it whole, summed here.
        const whole = await tx<OneProductRevenue[]>`
          select o.gateway_environment as environment, p.currency, i.product_id, min(i.product_name) as product_name,
                 count(*)::int as payments, sum(p.amount)::float8 as gross, sum(p.discount)::float8 as discounts,
                 sum(p.tax)::float8 as tax, sum(p.refunded_amount)::float8 as refunds,
                 sum(p.charged_back_amount)::float8 as charged_back
          from payments p join orders o on o.id = p.order_id
          join order_items i on i.order_id = p.order_id and i.position = (
            select min(position) from order_items where order_id = p.order_id)
          where p.created_at >= ${range.from} and p.created_at < ${range.until} and ${productsBought(tx)} = 1
          group by 1, 2, 3`;
        for (const sums of whole) products.addWhole(sums);
        // The rest are split one payment at a time, in pages by (recorded time, id). The time travels
        // as text both ways: the driver would write a timestamptz parameter as a JavaScript date, to
        // the millisecond, and repeat the page's last payment.
        let after: { at: string; id: string } | undefined;
        for (;;) {
          const page = await tx<(Omit<LedgerPayment, "items"> & { at: string; id: string; order_id: string })[]>`
            select p.id, p.created_at::text as at, p.order_id, o.gateway_environment as environment, p.currency,
                   p.kind, p.amount, p.discount, p.tax, p.refunded_amount, p.charged_back_amount
            from payments p join orders o on o.id = p.order_id
            where p.created_at >= ${range.from} and p.created_at < ${range.until} and ${productsBought(tx)} <> 1
              ${after ? tx`and p.created_at >= ${after.at}::text::timestamptz and (p.created_at, p.id) > (${after.at}::text::timestamptz, ${after.id}::uuid)` : tx``}
            order by p.created_at, p.id
            limit ${PAYMENT_BATCH}`;
          const items = await itemsOf(tx, [...new Set(page.map((payment) => payment.order_id))]);
          for (const { at, id, order_id, ...payment } of page)
            products.add({ ...payment, items: items.get(order_id) ?? [] });
          const last = page.at(-1);
          if (!last || page.length < PAYMENT_BATCH) return buckets;
          after = { at: last.at, id: last.id };
        }
      });
    },

    // A status at a moment as `SubscriptionGroup` reads it, and the price a subscription renews at:
    // its item's, or after a plan change to another interval, the product's active price for that
    // interval times the item's quantity. A product that no longer sells the new interval leaves the
    // item's own price and interval.
    async subscriptionGroups(at, since) {
      const statusAt = (moment: Date) => sql`
        case when s.cancelled_at <= ${moment} then 'cancelled'
             when s.updated_at <= ${moment} then s.status
             when s.trial_ends_at > ${moment} then 'trialing'
             else 'active' end`;
      return sql<SubscriptionGroup[]>`
        select o.gateway_environment as environment, o.currency, ${statusAt(at)} as status,
               coalesce(s.cancelled_at > ${at}, true) and s.updated_at > ${at} as inferred,
               s.created_at <= ${since} and ${statusAt(since)} in ('active', 'past_due') as paid_before,
               case when changed.price is null then i.billing_interval else s.billing_interval end as billing_interval,
               count(*)::int as subscriptions, sum(coalesce(changed.price * i.quantity, i.amount))::float8 as price
        from subscriptions s
        join order_items i on i.id = s.order_item_id
        join orders o on o.id = s.order_id
        left join lateral (
          select m.price from product_pricing_mappings m
          where m.product_id = s.product_id and m.payment_type = 'subscription'
            and m.billing_interval = s.billing_interval and m.is_active
          limit 1) changed on s.billing_interval is distinct from i.billing_interval
        where s.created_at <= ${at}
        group by 1, 2, 3, 4, 5, 6`;
    },
  };
}
