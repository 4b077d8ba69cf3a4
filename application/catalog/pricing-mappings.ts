import { ProductNotFound } from "../../domain/catalog/errors.ts";
import { type PricingMapping, type PricingMappingInput, validateMappings } from "../../domain/catalog/pricing.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import { CATALOG_TOPIC } from "./manage-products.ts";
import type { PricingMappingRepository, ProductRepository } from "./ports.ts";

export interface PricingMappingsDeps {
  readonly products: ProductRepository;
  readonly mappings: PricingMappingRepository;
  readonly changes: ChangeSignal;
}

export function makeListPricingMappings(deps: PricingMappingsDeps) {
  return async function listPricingMappings(productId: string): Promise<PricingMapping[]> {
    if (!(await deps.products.findById(productId))) throw new ProductNotFound();
    return deps.mappings.listByProduct(productId);
  };
}

/**
 * Replaces a product's mappings: every row is checked first, and one bad row saves nothing. The
 * audit entry holds the whole new set.
 */
export function makeSavePricingMappings(deps: PricingMappingsDeps) {
  return async function savePricingMappings(
    productId: string,
    input: readonly PricingMappingInput[],
    actorId: string,
  ): Promise<PricingMapping[]> {
    const product = await deps.products.findById(productId);
    if (!product) throw new ProductNotFound();
    const mappings = validateMappings(product, input);
    const saved = await deps.mappings.replaceForProduct(productId, mappings, {
      actor_id: actorId,
      action: "pricing_mapping.write",
      target_type: "product",
      target_id: productId,
      summary: { mappings: mappings.map((mapping) => ({ ...mapping })) },
    });
    await deps.changes.publish(CATALOG_TOPIC);
    return saved;
  };
}
