import type { OrderDetails, OrderRepository } from "../../../application/checkout/ports.ts";
import { discountPerRenewal } from "../../../domain/discounts/apply.ts";
import type { Order, OrderItem } from "../../../domain/orders/order.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

interface Row {
  order: Order;
  readonly items: OrderItem[];
  /** Creation order: breaks ties between orders created in the same millisecond. */
  readonly seq: number;
}

const newestFirst = (a: Row, b: Row) => b.order.created_at.getTime() - a.order.created_at.getTime() || b.seq - a.seq;

const encodeCursor = (row: Row) =>
  Buffer.from(JSON.stringify([row.order.created_at.getTime(), row.seq])).toString("base64url");

function decodeCursor(cursor: string): [number, number] {
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const [time, seq] = Array.isArray(key) && key.length === 2 ? key : [];
    if (Number.isSafeInteger(time) && Number.isSafeInteger(seq)) return [time, seq];
  } catch {
    // Falls through to the refusal below, as the real repository does.
  }
  throw new ValidationFailed([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}

/**
 * Orders and their items in memory, as the real repository keeps them: created `pending_payment`,
 * a checkout attached or failed (only while pending), listed newest first with a keyset cursor.
 * Payments, refunds and disputes belong to other repositories: `find` reports none.
 */
export function createInMemoryOrderRepository(
  options: { readonly now?: () => Date } = {},
): OrderRepository & { readonly all: () => Order[] } {
  const now = options.now ?? (() => new Date());
  const rows = new Map<string, Row>();
  let seq = 0;
  const change = (orderId: string, patch: Partial<Order>) => {
    const row = rows.get(orderId);
    if (row) row.order = { ...row.order, ...patch, updated_at: now() };
  };

  return {
    all: () => [...rows.values()].sort(newestFirst).map((row) => row.order),
    async create(input) {
      const created = now();
      const order: Order = {
        id: crypto.randomUUID(),
        customer_id: input.customer_id,
        status: "pending_payment",
        currency: input.totals.currency,
        subtotal: input.totals.subtotal,
        total: input.totals.total,
        due_today: input.totals.due_today,
        discount_id: input.totals.discount?.discount_id ?? null,
        discount_code: input.totals.discount?.code ?? null,
        discount_total: input.totals.discount_total,
        discount_payments: input.totals.discount?.payments ?? null,
        discount_renewal: discountPerRenewal(input.totals),
        payment_gateway: input.payment_gateway,
        gateway_environment: input.gateway_environment,
        metadata: input.metadata,
        checkout_session_id: null,
        checkout_url: null,
        flagged_reason: null,
        needs_attention: false,
        attention_reason: null,
        tax_behavior: input.tax_behavior,
        created_at: created,
        updated_at: created,
      };
      const items = input.totals.items.map(
        (item): OrderItem => ({ ...item, id: crypto.randomUUID(), order_id: order.id }),
      );
      seq += 1;
      rows.set(order.id, { order, items, seq });
      return { order, items: [...items] };
    },
    async attachCheckout(orderId, session) {
      change(orderId, { checkout_session_id: session.session_id, checkout_url: session.url });
      return { expired: rows.get(orderId)?.order.status === "expired" };
    },
    async rebind(orderId, binding) {
      const order = rows.get(orderId)?.order;
      if (order?.status !== "pending_payment" || order.checkout_session_id !== null) return false;
      change(orderId, binding);
      return true;
    },
    async markCheckoutFailed(orderId, reason) {
      if (rows.get(orderId)?.order.status !== "pending_payment") return;
      change(orderId, { status: "checkout_failed", flagged_reason: reason.slice(0, 500) });
    },
    async find(orderId): Promise<OrderDetails | undefined> {
      const row = rows.get(orderId);
      return (
        row && { order: row.order, items: [...row.items], payments: [], refunds: [], disputes: [], subscriptions: [] }
      );
    },
    async list(filter, page) {
      const after = page.cursor ? decodeCursor(page.cursor) : undefined;
      const matching = [...rows.values()]
        .filter(
          ({ order }) =>
            (!filter.customer_id || order.customer_id === filter.customer_id) &&
            (!filter.status || order.status === filter.status) &&
            (!filter.payment_gateway || order.payment_gateway === filter.payment_gateway) &&
            (filter.needs_attention === undefined || order.needs_attention === filter.needs_attention),
        )
        .filter(
          ({ order, seq }) =>
            !after ||
            order.created_at.getTime() < after[0] ||
            (order.created_at.getTime() === after[0] && seq < after[1]),
        )
        .sort(newestFirst);
      const items = matching.slice(0, page.limit);
      const last = items.at(-1);
      return {
        items: items.map((row) => row.order),
        next_cursor: matching.length > page.limit && last ? encodeCursor(last) : null,
      };
    },
  };
}
