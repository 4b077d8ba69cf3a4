import type { OrderDetails, OrderRepository } from "../../../application/checkout/ports.ts";
import type { OrderStatusWriter } from "../../../application/payments/ledger-ports.ts";
import { OrderTransitionRefused } from "../../../domain/orders/errors.ts";
import type { Order, OrderItem } from "../../../domain/orders/order.ts";
import { canTake, nextOrderStatus } from "../../../domain/orders/order-status.ts";
import { anOrderItem, aPaidOrder } from "../builders/orders.ts";
import type { InMemoryPaymentLedger } from "./in-memory-payment-ledger.ts";

/** A pending EUR order for gateway_b's sandbox, tax-exclusive, due in full today. */
const anOrder = (overrides: Partial<Order>): Order =>
  aPaidOrder({ status: "pending_payment", currency: "EUR", ...overrides });

/** One license, bought once, delivered by `license_download`. */
const anItem = (order: Order, overrides: Partial<OrderItem>): OrderItem =>
  anOrderItem(order, { license_type: null, ...overrides });

/**
 * Orders as the payment flow changes them, in memory: statuses move only through the domain's
 * state machine (and refuse a stale copy, as the real `where status = ...` guard does), attention
 * reasons add up. `add` seeds an order and its items (one license unless told otherwise);
 * `orderRepository` reads them back with the payment ledger's payments, refunds and disputes, as
 * the admin's order view does; `snapshot` lets a fake unit of work roll back.
 */
export function createInMemoryOrderStatusWriter() {
  let orders = new Map<string, Order>();
  let items = new Map<string, OrderItem[]>();
  /** Orders whose discount code was counted as redeemed. */
  const redemptions = new Set<string>();

  const get = (id: string): Order => {
    const order = orders.get(id);
    if (!order) throw new Error(`no order ${id}`);
    return order;
  };
  const change = (id: string, patch: Partial<Order>): Order => {
    orders.set(id, { ...get(id), ...patch, updated_at: new Date() });
    return get(id);
  };

  function add(
    overrides: Partial<Order> = {},
    itemOverrides: readonly Partial<OrderItem>[] = [{}],
  ): { order: Order; items: OrderItem[] } {
    const order = anOrder(overrides);
    const added = itemOverrides.map((each) => anItem(order, each));
    orders.set(order.id, order);
    items.set(order.id, added);
    return { order, items: added };
  }

  const ledger: OrderStatusWriter = {
    async find(orderId) {
      const order = orders.get(orderId);
      return order && { order, items: [...(items.get(orderId) ?? [])] };
    },
    async move(order, event) {
      const to = nextOrderStatus(order.status, event);
      if (get(order.id).status !== order.status) throw new OrderTransitionRefused(order.status, event);
      return change(order.id, { status: to });
    },
    async flagForAttention(orderId, reason) {
      const order = orders.get(orderId);
      if (!order) return undefined;
      const joined = order.needs_attention && order.attention_reason ? `${order.attention_reason}; ${reason}` : reason;
      return change(orderId, { needs_attention: true, attention_reason: joined.slice(0, 2000) });
    },
    async clearAttention(orderId) {
      change(orderId, { needs_attention: false, attention_reason: null });
    },
    async redeemDiscount(order) {
      if (order.discount_id !== null) redemptions.add(order.id);
    },
    /** Every order with a code counts as holding a limited one: the fake keeps no discounts. */
    async expireUnpaid(placedBefore, limit, holdBefore = placedBefore) {
      const due = [...orders.values()]
        .filter(
          (order) =>
            canTake(order.status, "expired") &&
            (order.created_at < placedBefore || (order.discount_id !== null && order.created_at < holdBefore)),
        )
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
        .slice(0, limit);
      return due.map((order) => change(order.id, { status: nextOrderStatus(order.status, "expired") }));
    },
  };

  function orderRepository(payments: InMemoryPaymentLedger): OrderRepository {
    async function find(orderId: string): Promise<OrderDetails | undefined> {
      const order = orders.get(orderId);
      if (!order) return undefined;
      const paid = await payments.forOrder(orderId);
      const ids = new Set(paid.map((payment) => payment.id));
      return {
        order,
        items: [...(items.get(orderId) ?? [])],
        payments: paid,
        refunds: payments.refunds().filter((refund) => ids.has(refund.payment_id)),
        disputes: payments.disputes().filter((dispute) => ids.has(dispute.payment_id)),
        subscriptions: [],
      };
    }
    return {
      async create(input) {
        const { totals, ...rest } = input;
        const { items: priced, ...sums } = totals;
        const order = anOrder({ ...rest, ...sums });
        const added = priced.map((item) => anItem(order, item));
        orders.set(order.id, order);
        items.set(order.id, added);
        return { order, items: added };
      },
      async attachCheckout(orderId, session) {
        change(orderId, { checkout_session_id: session.session_id, checkout_url: session.url });
        return { expired: orders.get(orderId)?.status === "expired" };
      },
      async rebind(orderId, binding) {
        const order = orders.get(orderId);
        if (order?.status !== "pending_payment" || order.checkout_session_id !== null) return false;
        change(orderId, binding);
        return true;
      },
      async markCheckoutFailed(orderId, reason) {
        const order = orders.get(orderId);
        if (order && canTake(order.status, "checkout_failed")) {
          change(orderId, { status: nextOrderStatus(order.status, "checkout_failed"), flagged_reason: reason });
        }
      },
      find,
      async list(filter, page) {
        const matching = [...orders.values()].filter(
          (order) =>
            (!filter.customer_id || order.customer_id === filter.customer_id) &&
            (!filter.status || order.status === filter.status) &&
            (!filter.payment_gateway || order.payment_gateway === filter.payment_gateway) &&
            (filter.needs_attention === undefined || order.needs_attention === filter.needs_attention),
        );
        // The cursor is the last order's id: enough for a fake, opaque all the same.
        const start = page.cursor ? matching.findIndex((order) => order.id === page.cursor) + 1 : 0;
        const shown = matching.slice(start, start + page.limit);
        const last = shown.at(-1);
        return { items: shown, next_cursor: matching.length > start + page.limit && last ? last.id : null };
      },
    };
  }

  return {
    ...ledger,
    add,
    get,
    itemsOf: (orderId: string) => [...(items.get(orderId) ?? [])],
    redeemed: (orderId: string) => redemptions.has(orderId),
    orderRepository,
    snapshot() {
      const saved = { orders: new Map(orders), items: new Map(items) };
      return () => {
        orders = saved.orders;
        items = saved.items;
      };
    },
  };
}

export type InMemoryOrderStatusWriter = ReturnType<typeof createInMemoryOrderStatusWriter>;
