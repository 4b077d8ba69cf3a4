import type { Static } from "elysia";
import type { CheckoutOptions } from "../../domain/catalog/pricing.ts";
import type { Product } from "../../domain/catalog/product.ts";
import type { AdminProductSchema } from "./catalog-schemas.ts";

type Mutable<T> = T extends readonly (infer Item)[]
  ? Mutable<Item>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;

/** A readonly domain value in the mutable shape TypeBox infers; the response schema checks it at run time. */
export const asBody = <T>(value: T) => value as Mutable<T>;

export function toAdminProductBody(product: Product, checkout_options: CheckoutOptions) {
  return {
    ...product,
    created_at: product.created_at.toISOString(),
    updated_at: product.updated_at.toISOString(),
    checkout_options,
  } as unknown as Static<typeof AdminProductSchema>;
}
