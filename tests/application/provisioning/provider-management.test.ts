import { describe, expect, test } from "bun:test";
import { NotAProviderProduct, ProviderManagementDisabled } from "../../../application/provisioning/errors.ts";
import { makeQueryProviderManagement } from "../../../application/provisioning/provider-management.ts";
import { ProductNotFound } from "../../../domain/catalog/errors.ts";
import { type ProductDefinition, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { createFakeProviderClient } from "../../support/fakes/fake-provider-client.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";

async function setup(definition: ProductDefinition) {
  const products = createInMemoryProductRepository();
  const provider = createFakeProviderClient();
  const product = await products.insert(definition);
  if (!product) throw new Error("product insert failed");
  return { provider, productId: product.id, query: makeQueryProviderManagement({ products, provider }) };
}

/** Stored as is: validation would refuse management enabled without an address, an older row need not. */
const withManagement = (management: Record<string, unknown>): ProductDefinition => {
  const product = validateProduct(aPointOfSaleProduct());
  return { ...product, fulfillment_config: { ...product.fulfillment_config, management } };
};

describe("querying the provider's management views", () => {
  test("asks the provider at the management address for the view's path, tenant encoded, and answers its body", async () => {
    const t = await setup(validateProduct(aPointOfSaleProduct()));
    t.provider.answerManagement({ status: "active" });

    const body = await t.query({ productId: t.productId, view: "tenant_status", tenant: "acme/eu", query: { a: "1" } });

    expect(body).toEqual({ status: "active" });
    expect(t.provider.calls.map((call) => [call.method, call.argument])).toEqual([
      [
        "management",
        {
          view: "tenant_status",
          baseUrl: "https://provider.example.com",
          path: "/api/marketplace/admin/tenants/acme%2Feu/status",
          query: { a: "1" },
        },
      ],
    ]);
  });

  test("a product whose management is switched off or has no address is refused without a call", async () => {
    for (const management of [{ enabled: false, base_url: "https://provider.example.com" }, { enabled: true }]) {
      const t = await setup(withManagement(management));
      await expect(t.query({ productId: t.productId, view: "overview" })).rejects.toBeInstanceOf(
        ProviderManagementDisabled,
      );
      expect(t.provider.calls).toEqual([]);
    }
  });

  test("only a multitenant SaaS product has a provider to ask", async () => {
    const t = await setup(validateProduct(aLicenseProduct()));
    await expect(t.query({ productId: t.productId, view: "plans" })).rejects.toBeInstanceOf(NotAProviderProduct);
    expect(t.provider.calls).toEqual([]);
  });

  test("an unknown product is not found", async () => {
    const t = await setup(validateProduct(aPointOfSaleProduct()));
    await expect(t.query({ productId: crypto.randomUUID(), view: "plans" })).rejects.toBeInstanceOf(ProductNotFound);
  });
});
