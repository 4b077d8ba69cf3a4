import type { OrderFilter } from "../../application/checkout/ports.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import type { Order } from "../../domain/orders/order.ts";
import type { OrderStatus } from "../../domain/orders/order-status.ts";
import type { Payment } from "../../domain/payments/payment.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { newestFirstExact } from "./keyset-page.ts";
import { orderConditions } from "./order-filter.ts";
import { ORDER_COLUMNS } from "./order-repository.ts";
import { PAYMENT_COLUMNS } from "./payment-ledger.ts";

/** An order as a line of the orders export: who bought it and what, beside the order's own fields. */
export interface OrderExportRow extends Order {
  readonly page_key: string;
  readonly customer_email: string;
  readonly customer_name: string;
  /** The items' product names and variants, in the order's order, `; ` between them. */
  readonly products: string;
}

/** A payment of the ledger with its order's state and buyer. */
export interface PaymentExportRow extends Payment {
  readonly page_key: string;
  /** Its order's status, by the name the order filter reads. */
  readonly status: OrderStatus;
  readonly needs_attention: boolean;
  readonly customer_email: string;
}

const qualified = (alias: string, columns: readonly string[]) => columns.map((column) => `${alias}.${column}`);
const ORDER_COLUMNS_OF_O = qualified("o", ORDER_COLUMNS);
const PAYMENT_COLUMNS_OF_P = qualified("p", PAYMENT_COLUMNS);

/**
 * The pages the CSV exports read, newest first as the admin lists are, and filtered by the same
 * conditions (order-filter.ts): each page is one short query from an index (keyset-page.ts,
 * `newestFirstExact`), so a slow download holds no connection and no transaction between pages. The
 * joined rows are wrapped so that the filter and the key read plain column names; PostgreSQL
 * flattens the wrapper, and computes the item list only for the page's rows (after the limit).
 */
export function createPostgresExportReaders(sql: Queryable) {
  return {
    async orders(filter: OrderFilter, page: PageRequest): Promise<Page<OrderExportRow>> {
      const keyset = newestFirstExact<OrderExportRow>(sql, page);
      const rows = await sql<OrderExportRow[]>`
        select *, ${keyset.key} from (
          select ${columnList(sql, ORDER_COLUMNS_OF_O)}, u.email as customer_email, u.name as customer_name,
                 (select coalesce(string_agg(i.product_name || ' (' || i.variant || ')', '; ' order by i.position), '')
                  from order_items i where i.order_id = o.id) as products
          from orders o join users u on u.id = o.customer_id
        ) o
        where true ${orderConditions(sql, filter)} ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },

    /** The order list's filter on each payment's order: its status, gateway, attention and buyer. */
    async payments(filter: OrderFilter, page: PageRequest): Promise<Page<PaymentExportRow>> {
      const keyset = newestFirstExact<PaymentExportRow>(sql, page);
      const rows = await sql<PaymentExportRow[]>`
        select *, ${keyset.key} from (
          select ${columnList(sql, PAYMENT_COLUMNS_OF_P)}, o.status,
                 o.payment_gateway, o.needs_attention, o.customer_id, u.email as customer_email
          from payments p join orders o on o.id = p.order_id join users u on u.id = o.customer_id
        ) p
        where true ${orderConditions(sql, filter)} ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },
  };
}

export type ExportReaders = ReturnType<typeof createPostgresExportReaders>;
