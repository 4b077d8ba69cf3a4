import { configOf, type ManagementView, managementPath } from "../../domain/catalog/drivers.ts";
import { ProductNotFound } from "../../domain/catalog/errors.ts";
import type { ProductRepository } from "../catalog/ports.ts";
import { NotAProviderProduct, ProviderManagementDisabled } from "./errors.ts";
import type { ProviderClient } from "./ports.ts";

export interface ProviderManagementQuery {
  readonly productId: string;
  readonly view: ManagementView;
  readonly tenant?: string;
  readonly query?: Readonly<Record<string, string>>;
}

/**
 * The admin's read-only window on the provider, through the product's `management` block: it reads,
 * never changes, what the provider holds.
 */
export function makeQueryProviderManagement(deps: { products: ProductRepository; provider: ProviderClient }) {
  return async function queryProviderManagement(request: ProviderManagementQuery): Promise<unknown> {
    const product = await deps.products.findById(request.productId);
    if (!product) throw new ProductNotFound();
    const config = configOf(product, "multitenant_saas");
    if (!config) throw new NotAProviderProduct();
    const management = config.management;
    if (!management?.enabled || !management.base_url) throw new ProviderManagementDisabled();
    return deps.provider.management(config, {
      view: request.view,
      baseUrl: management.base_url,
      path: managementPath(management, request.view, request.tenant),
      ...(request.query ? { query: request.query } : {}),
    });
  };
}
