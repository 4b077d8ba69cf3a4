import type { DeliveryModel } from "../../domain/catalog/drivers.ts";
import type { PricingMapping, PricingMappingInput } from "../../domain/catalog/pricing.ts";
import type { Product, ProductDefinition, ProductStatus } from "../../domain/catalog/product.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { Page, PageRequest } from "../shared/ports.ts";

export interface ProductFilter {
  readonly status?: ProductStatus;
  readonly delivery_model?: DeliveryModel;
  readonly tag?: string;
  /** Free text matched against name and description. */
  readonly q?: string;
}

export interface ProductWithMappings {
  readonly product: Product;
  readonly mappings: readonly PricingMapping[];
}

/**
 * Writes take the audit entry of the admin's change and store it in the change's transaction,
 * only when the change happened (a taken slug or an unknown product writes none).
 */
export interface ProductRepository {
  /** Undefined when the slug is taken. `audit` names the entry of the product created. */
  insert(definition: ProductDefinition, audit?: (created: Product) => AuditEntry): Promise<Product | undefined>;
  /** Undefined when the product does not exist; throws SlugTaken when the new slug is taken. */
  update(id: string, definition: ProductDefinition, audit?: AuditEntry): Promise<Product | undefined>;
  findById(id: string): Promise<Product | undefined>;
  findBySlug(slug: string): Promise<Product | undefined>;
  /** Several products with their mappings at once, keyed by id; unknown ids are simply absent. */
  findWithMappings(ids: readonly string[]): Promise<Map<string, ProductWithMappings>>;
  list(filter: ProductFilter, page: PageRequest): Promise<Page<ProductWithMappings>>;
  count(): Promise<number>;
  /** Mirrors the active environment's gateway-A price ids into `gwa_product_id_*` so the checkout can name them. */
  setGatewayAIds(
    id: string,
    ids: Readonly<Record<"regular" | "extended" | "monthly" | "yearly", string | null>>,
    audit?: AuditEntry,
  ): Promise<void>;
}

export interface PricingMappingRepository {
  listByProduct(productId: string): Promise<PricingMapping[]>;
  /** Replaces the product's whole set atomically: either every row (and `audit`'s entry) is stored or none is. */
  replaceForProduct(
    productId: string,
    mappings: readonly PricingMappingInput[],
    audit?: AuditEntry,
  ): Promise<PricingMapping[]>;
}
