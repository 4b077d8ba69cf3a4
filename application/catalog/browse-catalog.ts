import type { DeliveryModel } from "../../domain/catalog/drivers.ts";
import { ProductNotFound } from "../../domain/catalog/errors.ts";
import { type CheckoutOptions, checkoutOptions } from "../../domain/catalog/pricing.ts";
import type { Product } from "../../domain/catalog/product.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import type { PricingMappingRepository, ProductRepository } from "./ports.ts";

/** What anyone may see of a product: no fulfillment configuration, no provider or gateway internals. */
export interface PublicProduct {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly seo_title: string | null;
  readonly seo_description: string | null;
  readonly delivery_model: DeliveryModel;
  readonly is_recurring: boolean;
  readonly supports_trial: boolean;
  readonly trial_days: number | null;
  readonly default_release_version: string | null;
  readonly checkout_options: CheckoutOptions;
}

export function toPublicProduct(product: Product, options: CheckoutOptions): PublicProduct {
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    description: product.description,
    tags: product.tags,
    seo_title: product.seo_title,
    seo_description: product.seo_description,
    delivery_model: product.delivery_model,
    is_recurring: product.is_recurring,
    supports_trial: product.supports_trial,
    trial_days: product.trial_days,
    default_release_version: product.default_release_version,
    checkout_options: options,
  };
}

export interface BrowseCatalogDeps {
  readonly products: ProductRepository;
  readonly mappings: PricingMappingRepository;
  readonly currency: string;
}

export interface PublicListQuery extends PageRequest {
  readonly delivery_model?: DeliveryModel;
  readonly tag?: string;
  readonly q?: string;
}

export function makeListPublicProducts(deps: BrowseCatalogDeps) {
  return async function listPublicProducts(query: PublicListQuery): Promise<Page<PublicProduct>> {
    const { limit, cursor, ...filter } = query;
    const page = await deps.products.list({ ...filter, status: "published" }, { limit, ...(cursor ? { cursor } : {}) });
    return {
      items: page.items.map(({ product, mappings }) =>
        toPublicProduct(product, checkoutOptions(product, mappings, deps.currency)),
      ),
      next_cursor: page.next_cursor,
    };
  };
}

/** Drafts and archived products are simply not found: their existence is not public either. */
export function makeGetPublicProduct(deps: BrowseCatalogDeps) {
  return async function getPublicProduct(slug: string): Promise<PublicProduct> {
    const product = await deps.products.findBySlug(slug);
    if (product?.status !== "published") throw new ProductNotFound();
    const mappings = await deps.mappings.listByProduct(product.id);
    return toPublicProduct(product, checkoutOptions(product, mappings, deps.currency));
  };
}
