import type { AdminLicense } from "../../application/licensing/admin-ports.ts";
import type { OrderExportRow, PaymentExportRow } from "../postgres/export-readers.ts";
import type { CsvColumn } from "./csv-stream.ts";

/**
 * The columns of each export, snake_case as the JSON lists name the same fields. Money is in minor
 * units beside its currency, as everywhere in the API.
 */
const column = <T>(header: string, value: CsvColumn<T>["value"]): CsvColumn<T> => ({ header, value });

export const ORDER_EXPORT_COLUMNS: readonly CsvColumn<OrderExportRow>[] = [
  column("id", (o) => o.id),
  column("created_at", (o) => o.created_at),
  column("status", (o) => o.status),
  column("customer_id", (o) => o.customer_id),
  column("customer_email", (o) => o.customer_email),
  column("customer_name", (o) => o.customer_name),
  column("products", (o) => o.products),
  column("currency", (o) => o.currency),
  column("subtotal", (o) => o.subtotal),
  column("discount_code", (o) => o.discount_code),
  column("discount_total", (o) => o.discount_total),
  column("total", (o) => o.total),
  column("due_today", (o) => o.due_today),
  column("tax_behavior", (o) => o.tax_behavior),
  column("payment_gateway", (o) => o.payment_gateway),
  column("gateway_environment", (o) => o.gateway_environment),
  column("needs_attention", (o) => o.needs_attention),
  column("attention_reason", (o) => o.attention_reason),
  column("flagged_reason", (o) => o.flagged_reason),
  column("updated_at", (o) => o.updated_at),
];

export const PAYMENT_EXPORT_COLUMNS: readonly CsvColumn<PaymentExportRow>[] = [
  column("id", (p) => p.id),
  column("created_at", (p) => p.created_at),
  column("order_id", (p) => p.order_id),
  column("order_status", (p) => p.status),
  column("needs_attention", (p) => p.needs_attention),
  column("customer_email", (p) => p.customer_email),
  column("gateway", (p) => p.gateway),
  column("gateway_payment_id", (p) => p.payment_id),
  column("kind", (p) => p.kind),
  column("currency", (p) => p.currency),
  column("amount", (p) => p.amount),
  column("tax", (p) => p.tax),
  column("discount", (p) => p.discount),
  column("refunded_amount", (p) => p.refunded_amount),
  column("charged_back_amount", (p) => p.charged_back_amount),
  column("invoice_id", (p) => p.invoice_id),
];

/** A license's key only as its hint, as the list shows it: an export must not hand out every key. */
export const LICENSE_EXPORT_COLUMNS: readonly CsvColumn<AdminLicense>[] = [
  column("id", (l) => l.id),
  column("created_at", (l) => l.created_at),
  column("status", (l) => l.status),
  column("held", (l) => l.held),
  column("customer_id", (l) => l.customer_id),
  column("customer_email", (l) => l.customer_email),
  column("product_id", (l) => l.product_id),
  column("product_name", (l) => l.product_name),
  column("order_id", (l) => l.order_id),
  column("license_type", (l) => l.license_type),
  column("key_hint", (l) => `…${l.license_key.slice(-12)}`),
  column("max_activations", (l) => l.max_activations),
  column("activations", (l) => l.activations),
  column("floating", (l) => l.floating),
  column("reissues", (l) => l.reissues),
  column("expires_at", (l) => l.expires_at),
];
