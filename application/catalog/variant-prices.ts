import { resolvePrice, variantsFor } from "../../domain/catalog/pricing.ts";
import type { Variant } from "../../domain/catalog/variants.ts";
import type { PricingMappingRepository, ProductRepository } from "./ports.ts";

/**
 * What a published product charges for a variant now, by the one price rule (an active pricing
 * mapping, else the base price); undefined when the variant is not for sale: a product that is not
 * published, a variant its billing does not allow, or one with no price.
 */
export function makeVariantPrices(deps: {
  readonly products: Pick<ProductRepository, "findById">;
  readonly mappings: Pick<PricingMappingRepository, "listByProduct">;
}) {
  return {
    async price(productId: string, variant: Variant): Promise<number | undefined> {
      const product = await deps.products.findById(productId);
      if (product?.status !== "published" || !variantsFor(product).includes(variant)) return undefined;
      return resolvePrice(product, await deps.mappings.listByProduct(productId), variant)?.price;
    },
  };
}
