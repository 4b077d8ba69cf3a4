import type {
  CustomerInstallation,
  CustomerLicense,
  CustomerReadModel,
  CustomerSubscription,
  DashboardRow,
  Entitlement,
} from "../../application/customers/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Sql } from "./database.ts";

const LIMIT = 500;

export function createPostgresCustomerReadModel(sql: Sql): CustomerReadModel {
  // A code's renewal terms: the renewing items' price less what it takes off, for the payments
  // it still lowers (the first payment and the renewals so far counted).
  const subscriptionsOf = (customerId: string, id: string | null) => sql<CustomerSubscription[]>`
    select s.id, s.order_id, s.product_id, p.name as product_name, s.gateway, s.status, s.billing_interval,
           s.trial_ends_at, s.current_period_end, s.cancelled_at, s.cancel_at_period_end, s.pending_interval,
           s.pending_at,
           case when o.discount_id is null or o.discount_renewal = 0
                  or (o.discount_payments is not null and o.discount_payments <= paid.count) then null
                else json_build_object(
                  'code', o.discount_code,
                  'currency', o.currency,
                  'renewal_amount', renewing.amount - o.discount_renewal,
                  'renewals_left', o.discount_payments - paid.count) end as discount
    from subscriptions s join products p on p.id = s.product_id
    join orders o on o.id = s.order_id
    cross join lateral (
      select count(*)::int as count from payments pay where pay.order_id = o.id and pay.kind <> 'proration') paid
    cross join lateral (
      select coalesce(sum(i.amount), 0)::float8 as amount from order_items i
      where i.order_id = o.id and i.billing_interval is not null) renewing
    where s.customer_id = ${customerId} and (${id}::uuid is null or s.id = ${id}::uuid)
    order by s.created_at desc limit ${LIMIT}`;

  return {
    async dashboard(customerId, orderId) {
      return [
        ...(await sql<DashboardRow[]>`
          select o.id as order_id, o.status as order_status, o.payment_gateway, o.checkout_url,
                 i.id as order_item_id, i.product_id, i.product_name, i.delivery_model, i.fulfillment_driver as driver,
                 i.variant, f.id as fulfillment_id, f.status, f.payload_snapshot->>'awaiting' as awaiting, f.external_status,
                 f.external_workspace_url as workspace_url,
                 l.license_key, l.max_activations,
                 (select count(*)::int from license_activations a where a.license_id = l.id) as activations,
                 e.id as entitlement_id, t.due_at as task_due_at, o.created_at
          from orders o
          join order_items i on i.order_id = o.id
          left join fulfillment_records f on f.order_item_id = i.id
          left join licenses l on l.fulfillment_record_id = f.id
          left join download_entitlements e on e.fulfillment_record_id = f.id and e.revoked_at is null
          left join lateral (
            select due_at from ops_tasks where fulfillment_record_id = f.id and status = 'open' order by created_at desc limit 1
          ) t on true
          where o.customer_id = ${customerId} and o.status <> 'checkout_failed'
            ${orderId === undefined ? sql`` : sql`and o.id = ${orderId}`}
          order by o.created_at desc, i.position
          limit ${LIMIT}`),
      ];
    },

    async licenses(customerId) {
      return [
        ...(await sql<CustomerLicense[]>`
          select l.id, l.product_id, p.name as product_name, l.license_type, l.license_key, l.max_activations,
                 (select count(*)::int from license_activations a where a.license_id = l.id) as activations,
                 l.floating, l.offline_checkout_max_days,
                 l.expires_at, l.status, e.id as entitlement_id, l.created_at
          from licenses l join products p on p.id = l.product_id
          left join download_entitlements e on e.license_id = l.id and e.revoked_at is null
          where l.customer_id = ${customerId}
          order by l.created_at desc limit ${LIMIT}`),
      ];
    },

    async subscriptions(customerId) {
      return [...(await subscriptionsOf(customerId, null))];
    },

    async subscription(customerId, id) {
      if (!isUuid(id)) return undefined;
      return (await subscriptionsOf(customerId, id))[0];
    },

    async installations(customerId) {
      return [
        ...(await sql<CustomerInstallation[]>`
          select n.id, n.fulfillment_record_id, n.product_id, p.name as product_name, n.domain, n.url, n.status, n.created_at
          from installations n join products p on p.id = n.product_id
          where n.customer_id = ${customerId}
          order by n.created_at desc limit ${LIMIT}`),
      ];
    },

    async entitlement(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<Entitlement[]>`
        select e.id, e.customer_id, e.artifact_source, e.version, e.revoked_at, l.status as license_status
        from download_entitlements e join licenses l on l.id = e.license_id where e.id = ${id}`;
      return row;
    },
  };
}
