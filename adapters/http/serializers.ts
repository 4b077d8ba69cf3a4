import type { Static } from "elysia";
import type { CheckoutOptions } from "../../domain/catalog/pricing.ts";
import type { Product } from "../../domain/catalog/product.ts";
import type { AdminProductSchema } from "./catalog-schemas.ts";

/** Readonly domain values in the mutable shape TypeBox infers; the response schema checks it at run time. */
export function toAdminProductBody(product: Product, checkout_options: CheckoutOptions) {
  return {
    ...product,
    created_at: product.created_at.toISOString(),
    updated_at: product.updated_at.toISOString(),
    checkout_options,
  } as unknown as Static<typeof AdminProductSchema>;
}
