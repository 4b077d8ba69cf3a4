import type { OrderStatusWriter } from "../../application/payments/ledger-ports.ts";
import { OrderTransitionRefused } from "../../domain/orders/errors.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import { nextOrderStatus, sourcesFor, targetOf } from "../../domain/orders/order-status.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { ITEM_COLUMNS, ORDER_COLUMNS } from "./order-repository.ts";

export function createPostgresOrderStatusWriter(sql: Queryable): OrderStatusWriter {
  return {
    async find(orderId) {
      if (!isUuid(orderId)) return undefined;
      // Sent together: inside the caller's transaction postgres.js pipelines them on its connection.
      const [[order], items] = await Promise.all([
        sql<Order[]>`select ${columnList(sql, ORDER_COLUMNS)} from orders where id = ${orderId} for update`,
        sql<
          OrderItem[]
        >`select ${columnList(sql, ITEM_COLUMNS)} from order_items where order_id = ${orderId} order by position`,
      ]);
      if (!order) return undefined;
      return { order, items: [...items] };
    },

    async move(order, event) {
      const to = nextOrderStatus(order.status, event);
      // The row is locked by `find`; the status guard still refuses a stale copy of the order.
      const [moved] = await sql<Order[]>`
        update orders set status = ${to}, updated_at = now()
        where id = ${order.id} and status = ${order.status} returning ${columnList(sql, ORDER_COLUMNS)}`;
      if (!moved) throw new OrderTransitionRefused(order.status, event);
      return moved;
    },

    async flagForAttention(orderId, reason) {
      const [order] = await sql<Order[]>`
        update orders set needs_attention = true, updated_at = now(),
          attention_reason = case when needs_attention and attention_reason is not null
            then left(attention_reason || '; ' || ${reason}, 2000) else ${reason} end
        where id = ${orderId} returning ${columnList(sql, ORDER_COLUMNS)}`;
      return order;
    },

    async clearAttention(orderId) {
      await sql`update orders set needs_attention = false, attention_reason = null, updated_at = now() where id = ${orderId}`;
    },

    async redeemDiscount(order) {
      if (order.discount_id === null) return;
      await sql`
        insert into discount_redemptions (discount_id, order_id, customer_id)
        values (${order.discount_id}, ${order.id}, ${order.customer_id})
        on conflict (order_id) do nothing`;
    },

    async expireUnpaid(placedBefore, limit, holdBefore = placedBefore) {
      const unpaid = sourcesFor("expired");
      const expired = await sql<Order[]>`
        update orders set status = ${targetOf("expired")}, updated_at = now()
        where id in (
          select o.id from orders o
          where o.status in ${sql(unpaid)} and (
            o.created_at < ${placedBefore}
            or (o.created_at < ${holdBefore} and o.discount_id in (
              select d.id from discounts d where d.max_redemptions is not null)))
          order by o.created_at limit ${limit} for update of o skip locked)
        and status in ${sql(unpaid)}
        returning ${columnList(sql, ORDER_COLUMNS)}`;
      return [...expired];
    },
  };
}
