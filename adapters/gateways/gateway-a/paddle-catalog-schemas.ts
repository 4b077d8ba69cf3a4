import type { RemotePrice, RemoteProduct } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import type { BillingInterval } from "../../../domain/catalog/pricing.ts";
import { VARIANTS, type Variant } from "../../../domain/catalog/variants.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { minorUnits } from "./paddle-fields.ts";
import type { PaddleEnvelope } from "./paddle-http.ts";

const bad = (reason: string): never => {
  throw new UpstreamBadResponse("gateway", reason);
};

function customData(value: unknown, what: string): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return {};
  return isRecord(value) ? value : bad(`${what}.custom_data is not an object`);
}

/** A Paddle `Product`, as far as the marketplace relies on it. */
export function readPaddleProduct(value: unknown): RemoteProduct {
  if (!isRecord(value)) return bad("a product is not an object");
  if (typeof value.id !== "string" || typeof value.name !== "string") return bad("a product lacks id or name");
  const marketplaceId = customData(value.custom_data, "product").marketplace_product_id;
  return {
    id: value.id,
    name: value.name,
    marketplace_product_id: typeof marketplaceId === "string" ? marketplaceId : null,
  };
}

const INTERVALS: Readonly<Record<string, BillingInterval>> = { month: "monthly", year: "yearly" };

function billingInterval(cycle: unknown): BillingInterval | null {
  if (cycle === null || cycle === undefined) return null;
  if (!isRecord(cycle) || typeof cycle.interval !== "string") return bad("price.billing_cycle is not a cycle");
  return cycle.frequency === 1 ? (INTERVALS[cycle.interval] ?? null) : null;
}

/** A Paddle `Price`: amount from a string of minor units, currency upper-cased. */
export function readPaddlePrice(value: unknown): RemotePrice {
  if (!isRecord(value)) return bad("a price is not an object");
  if (typeof value.id !== "string" || typeof value.product_id !== "string") {
    return bad("a price lacks id or product_id");
  }
  const unit = isRecord(value.unit_price) ? value.unit_price : bad("price.unit_price is missing");
  const amount = minorUnits(unit.amount) ?? bad("price.unit_price.amount is not minor units");
  if (typeof unit.currency_code !== "string") return bad("price.unit_price.currency_code is missing");
  if (typeof value.status !== "string") return bad("price.status is missing");
  const variant = customData(value.custom_data, "price").variant;
  return {
    id: value.id,
    product_id: value.product_id,
    amount,
    currency: unit.currency_code.toUpperCase(),
    billing_interval: billingInterval(value.billing_cycle),
    variant: VARIANTS.includes(variant as Variant) ? (variant as Variant) : null,
    active: value.status === "active",
    tax_behavior: value.tax_mode === "internal" ? "inclusive" : value.tax_mode === "external" ? "exclusive" : null,
  };
}

/** One page of `GET /products`: the products and the full URL of the next page, if any. */
export function readProductPage(envelope: PaddleEnvelope): { products: RemoteProduct[]; next: URL | null } {
  if (!Array.isArray(envelope.data)) return bad("the product list is not an array");
  const products = envelope.data.map(readPaddleProduct);
  const pagination = isRecord(envelope.meta) && isRecord(envelope.meta.pagination) ? envelope.meta.pagination : null;
  if (pagination === null || typeof pagination.has_more !== "boolean") return bad("meta.pagination is missing");
  if (!pagination.has_more) return { products, next: null };
  if (typeof pagination.next !== "string" || !URL.canParse(pagination.next)) {
    return bad("meta.pagination.next is not a URL");
  }
  return { products, next: new URL(pagination.next) };
}
