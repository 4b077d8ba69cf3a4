import type { OrderDetails, OrderItemPlan, OrderRepository, RefundRecord } from "../../application/checkout/ports.ts";
import type { Page } from "../../application/shared/ports.ts";
import { CustomerNotFound } from "../../domain/checkout/errors.ts";
import { discountPerRenewal, discountRefused } from "../../domain/discounts/apply.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import { NEW_ORDER_STATUS, sourcesFor, targetOf } from "../../domain/orders/order-status.ts";
import type { Dispute, Payment } from "../../domain/payments/payment.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable, Sql } from "./database.ts";
import { holdersOf } from "./discount-codes.ts";
import { newestFirst } from "./keyset-page.ts";
import { orderConditions } from "./order-filter.ts";
import { DISPUTE_COLUMNS, PAYMENT_COLUMNS } from "./payment-ledger.ts";

/** The dispute columns, qualified by the alias `d` the order's read uses. */
const DISPUTE_COLUMNS_OF_D = DISPUTE_COLUMNS.map((column) => `d.${column}`);

export const ORDER_COLUMNS = [
  "id",
  "customer_id",
  "status",
  "currency",
  "subtotal",
  "total",
  "due_today",
  "discount_id",
  "discount_code",
  "discount_total",
  "discount_payments",
  "discount_renewal",
  "payment_gateway",
  "gateway_environment",
  "metadata",
  "checkout_session_id",
  "checkout_url",
  "flagged_reason",
  "needs_attention",
  "attention_reason",
  "tax_behavior",
  "created_at",
  "updated_at",
];
export const ITEM_COLUMNS = [
  "id",
  "order_id",
  "product_id",
  "product_name",
  "variant",
  "payment_type",
  "license_type",
  "billing_interval",
  "unit_price",
  "quantity",
  "amount",
  "trial_days",
  "due_today",
  "discount",
  "delivery_model",
  "fulfillment_driver",
  "options",
];
/**
 * Takes one of a discount's redemptions for a new order, under the discount's row lock: the paid
 * orders and the open checkouts holding it are counted, so that concurrent checkouts cannot pass
 * `max_redemptions` between them.
 */
async function holdDiscount(tx: Queryable, discountId: string) {
  const [discount] = await tx<{ max_redemptions: number | null; usable: boolean }[]>`
    select max_redemptions, disabled_at is null and (expires_at is null or expires_at > now()) as usable
    from discounts where id = ${discountId} for update`;
  if (!discount?.usable) throw discountRefused("DISCOUNT_EXPIRED");
  if (discount.max_redemptions === null) return;
  const [held] = await tx<{ count: number }[]>`select ${holdersOf(tx, discountId)} as count`;
  if ((held?.count ?? 0) >= discount.max_redemptions) throw discountRefused("DISCOUNT_USED_UP");
}

export function createPostgresOrderRepository(sql: Sql): OrderRepository {
  return {
    create(input) {
      const discount = input.totals.discount;
      const created = sql.begin(async (tx) => {
        if (discount) await holdDiscount(tx, discount.discount_id);
        const [order] = await tx<Order[]>`
          insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                              gateway_environment, tax_behavior, metadata, discount_id, discount_code,
                              discount_total, discount_payments, discount_renewal)
          values (${input.customer_id}, ${NEW_ORDER_STATUS}, ${input.totals.currency}, ${input.totals.subtotal},
                  ${input.totals.total}, ${input.totals.due_today}, ${input.payment_gateway},
                  ${input.gateway_environment}, ${input.tax_behavior}, ${input.metadata},
                  ${discount?.discount_id ?? null}, ${discount?.code ?? null}, ${input.totals.discount_total},
                  ${discount?.payments ?? null}, ${discountPerRenewal(input.totals)})
          returning ${columnList(tx, ORDER_COLUMNS)}`;
        if (!order) throw new Error("order insert returned no row");
        const rows = input.totals.items.map((item, position) => ({
          order_id: order.id,
          position,
          product_id: item.product_id,
          product_name: item.product_name,
          variant: item.variant,
          payment_type: item.payment_type,
          license_type: item.license_type,
          billing_interval: item.billing_interval,
          unit_price: item.unit_price,
          quantity: item.quantity,
          amount: item.amount,
          trial_days: item.trial_days,
          due_today: item.due_today,
          discount: item.discount,
          delivery_model: item.delivery_model,
          fulfillment_driver: item.fulfillment_driver,
          options: tx.json(item.options as Record<string, string>),
        }));
        const items = await tx<OrderItem[]>`
          insert into order_items ${tx(rows)} returning ${columnList(tx, ITEM_COLUMNS)}`;
        return { order, items: [...items] };
      });
      // The customer went meanwhile: a guest record folded into the account that proved its address.
      return created.catch((error: unknown) => {
        throw (error as { code?: unknown }).code === "23503" &&
          (error as { constraint_name?: unknown }).constraint_name === "orders_customer_id_fkey"
          ? new CustomerNotFound()
          : error;
      });
    },

    async attachCheckout(orderId, session) {
      const [row] = await sql<{ status: string }[]>`
        update orders set checkout_session_id = ${session.session_id}, checkout_url = ${session.url}, updated_at = now()
        where id = ${orderId}
        returning status`;
      return { expired: row?.status === "expired" };
    },

    async rebind(orderId, binding) {
      const moved = await sql`
        update orders set payment_gateway = ${binding.payment_gateway},
          gateway_environment = ${binding.gateway_environment}, tax_behavior = ${binding.tax_behavior},
          metadata = ${binding.metadata}, updated_at = now()
        where id = ${orderId} and status = ${NEW_ORDER_STATUS} and checkout_session_id is null`;
      return moved.count === 1;
    },

    async markCheckoutFailed(orderId, reason) {
      await sql`
        update orders set status = ${targetOf("checkout_failed")}, flagged_reason = ${reason.slice(0, 500)},
          updated_at = now()
        where id = ${orderId} and status in ${sql(sourcesFor("checkout_failed"))}`;
    },

    async find(orderId): Promise<OrderDetails | undefined> {
      if (!isUuid(orderId)) return undefined;
      const [order] = await sql<Order[]>`select ${columnList(sql, ORDER_COLUMNS)} from orders where id = ${orderId}`;
      if (!order) return undefined;
      const [items, payments, refunds, disputes, subscriptions] = await Promise.all([
        sql<
          OrderItem[]
        >`select ${columnList(sql, ITEM_COLUMNS)} from order_items where order_id = ${orderId} order by position`,
        sql<
          Payment[]
        >`select ${columnList(sql, PAYMENT_COLUMNS)} from payments where order_id = ${orderId} order by created_at, id`,
        sql<RefundRecord[]>`
          select r.id, r.payment_id, r.gateway_refund_id, r.amount, r.status, r.created_at
          from refunds r join payments p on p.id = r.payment_id
          where p.order_id = ${orderId} and r.status <> 'reserved' order by r.created_at, r.id`,
        sql<Dispute[]>`
          select ${columnList(sql, DISPUTE_COLUMNS_OF_D)} from disputes d
          join payments p on p.id = d.payment_id where p.order_id = ${orderId} order by d.created_at, d.id`,
        sql<OrderItemPlan[]>`
          select order_item_id, id as subscription_id, status, billing_interval, current_period_end,
                 pending_interval, pending_at
          from subscriptions where order_id = ${orderId} order by created_at, id`,
      ]);
      return {
        order,
        items: [...items],
        payments: [...payments],
        refunds: [...refunds],
        disputes: [...disputes],
        subscriptions: [...subscriptions],
      };
    },

    async list(filter, page): Promise<Page<Order>> {
      const keyset = newestFirst<Order>(sql, page);
      const rows = await sql<Order[]>`
        select ${columnList(sql, ORDER_COLUMNS)} from orders
        where true ${orderConditions(sql, filter)} ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },
  };
}
