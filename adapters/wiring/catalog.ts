import { makeGetPublicProduct, makeListPublicProducts } from "../../application/catalog/browse-catalog.ts";
import { describeDrivers } from "../../application/catalog/describe-drivers.ts";
import {
  makeArchiveProduct,
  makeCreateProduct,
  makeGetAdminProduct,
  makeListAdminProducts,
  makeUpdateProduct,
} from "../../application/catalog/manage-products.ts";
import { makeListPricingMappings, makeSavePricingMappings } from "../../application/catalog/pricing-mappings.ts";
import { createPostgresPricingMappingRepository } from "../postgres/pricing-mapping-repository.ts";
import { createPostgresProductRepository } from "../postgres/product-repository.ts";
import type { Platform } from "./platform.ts";

/** Products, pricing mappings and the public catalog (cached per instance, invalidated by `changes`). */
export function wireCatalog({ config, sql, changes, urls, secrets, secretUses }: Platform) {
  const products = createPostgresProductRepository(sql);
  const mappings = createPostgresPricingMappingRepository(sql);
  const catalog = { products, mappings, changes, currency: config.currency, urls, secrets, uses: secretUses };
  return {
    catalog,
    useCases: {
      changes,
      createProduct: makeCreateProduct(catalog),
      updateProduct: makeUpdateProduct(catalog),
      archiveProduct: makeArchiveProduct(catalog),
      getAdminProduct: makeGetAdminProduct(catalog),
      listAdminProducts: makeListAdminProducts(catalog),
      listPricingMappings: makeListPricingMappings(catalog),
      savePricingMappings: makeSavePricingMappings(catalog),
      describeDrivers,
      listPublicProducts: makeListPublicProducts(catalog),
      getPublicProduct: makeGetPublicProduct(catalog),
    },
  };
}

export type CatalogFeature = ReturnType<typeof wireCatalog>;
