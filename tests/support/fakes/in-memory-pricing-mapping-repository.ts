import type { AuditLogWriter } from "../../../application/audit/ports.ts";
import type { PricingMappingRepository } from "../../../application/catalog/ports.ts";
import type { PricingMapping } from "../../../domain/catalog/pricing.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";

export type InMemoryPricingMappingRepository = PricingMappingRepository & {
  /** Every product's mappings, in their saved order (what the product repository joins in). */
  readonly byProduct: ReadonlyMap<string, readonly PricingMapping[]>;
  /** How many times a product's whole set was replaced. */
  readonly replacements: number;
};

/**
 * Keeps each product's mappings in their saved order; a replace swaps the whole set at once and
 * writes its audit entry to `trail`.
 */
export function createInMemoryPricingMappingRepository(
  trail: AuditLogWriter = createInMemoryAuditLogWriter(),
): InMemoryPricingMappingRepository {
  const byProduct = new Map<string, PricingMapping[]>();
  let replacements = 0;
  return {
    byProduct,
    get replacements() {
      return replacements;
    },
    async listByProduct(productId) {
      return [...(byProduct.get(productId) ?? [])];
    },
    async replaceForProduct(productId, mappings, audit) {
      const saved = mappings.map(
        (m): PricingMapping => ({
          id: crypto.randomUUID(),
          product_id: productId,
          payment_type: m.payment_type,
          license_type: m.license_type ?? null,
          billing_interval: m.billing_interval ?? null,
          price: m.price,
          is_active: m.is_active,
        }),
      );
      byProduct.set(productId, saved);
      replacements += 1;
      if (audit) await trail.record(audit);
      return [...saved];
    },
  };
}
