import { describe, expect, test } from "bun:test";
import { makeGatewayProductSync } from "../../../application/payments/gateway-product-sync.ts";
import { ProductNotFound } from "../../../domain/catalog/errors.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { createInMemoryAuditLogWriter } from "../../support/fakes/in-memory-audit-log-writer.ts";
import { createInMemoryGatewayCatalog } from "../../support/fakes/in-memory-gateway-catalog.ts";
import { createInMemoryGatewayProductRefs } from "../../support/fakes/in-memory-gateway-product-refs.ts";
import { createInMemoryMutex } from "../../support/fakes/in-memory-mutex.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";
import { createStaticGatewaySettings } from "../../support/fakes/static-gateway-settings.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

/** The sync use cases as the signed-in admin `ADMIN` calls them. */
async function setUp(product: Partial<ProductInput> = {}) {
  const audit = createInMemoryAuditLogWriter();
  const mappings = createInMemoryPricingMappingRepository();
  const products = createInMemoryProductRepository(mappings, audit);
  const catalog = createInMemoryGatewayCatalog();
  const refs = createInMemoryGatewayProductRefs(audit);
  const settings = createStaticGatewaySettings();
  const mutex = createInMemoryMutex();
  const productSync = makeGatewayProductSync({ products, mappings, catalog, refs, settings, mutex, currency: "EUR" });
  const sync = {
    createRemoteProduct: (productId: string) => productSync.createRemoteProduct(productId, ADMIN),
    syncProduct: (productId: string) => productSync.syncProduct(productId, ADMIN),
  };
  const stored = await products.insert(validateProduct(aLicenseProduct(product)));
  if (!stored) throw new Error("product not stored");
  return { products, mappings, catalog, refs, settings, mutex, sync, audit, product: stored };
}

const actions = (result: { variants: readonly { variant: string; action: string }[] }) =>
  Object.fromEntries(result.variants.map((v) => [v.variant, v.action]));

describe("creating a product at gateway A", () => {
  test("creates it once; asked again, the stored product is kept", async () => {
    const { sync, catalog, product } = await setUp();
    const first = await sync.createRemoteProduct(product.id);
    const second = await sync.createRemoteProduct(product.id);
    expect(first).toMatchObject({ product_id: product.id, environment: "sandbox", product_action: "created" });
    expect(second).toMatchObject({ remote_product_id: first.remote_product_id, product_action: "unchanged" });
    expect(catalog.writes).toEqual([`create product ${first.remote_product_id}`]);
  });

  test("a stored id the gateway no longer knows is re-linked to the product it has for us", async () => {
    const { sync, catalog, refs, product } = await setUp();
    const existing = await catalog.createProduct({ marketplace_product_id: product.id, name: "x", description: "" });
    const ref = { slot: "product" as const, remote_id: "pro_gone", amount: null, currency: null, tax_behavior: null };
    await refs.put(product.id, "gateway_a", "sandbox", ref);
    const result = await sync.createRemoteProduct(product.id);
    expect(result).toMatchObject({ remote_product_id: existing.id, product_action: "relinked" });
    expect(await refs.list(product.id, "gateway_a", "sandbox")).toMatchObject([
      { slot: "product", remote_id: existing.id },
    ]);
  });

  test("of a product that does not exist is refused and creates nothing", async () => {
    const { sync, catalog } = await setUp();
    await expect(sync.createRemoteProduct(crypto.randomUUID())).rejects.toBeInstanceOf(ProductNotFound);
    expect(catalog.writes).toEqual([]);
  });

  test("runs under the product's lock", async () => {
    const { sync, mutex, catalog, product } = await setUp();
    const release = mutex.hold(`gateway_a:product:${product.id}`);
    await expect(sync.createRemoteProduct(product.id)).rejects.toThrow("held elsewhere");
    release();
    expect(catalog.writes).toEqual([]);
  });
});

describe("syncing a product's prices to gateway A", () => {
  test("creates a price for each variant on sale, and records the ids on the product", async () => {
    const { sync, products, catalog, product } = await setUp();
    const result = await sync.syncProduct(product.id);
    expect(actions(result)).toEqual({
      regular: "created",
      extended: "created",
      monthly: "not_for_sale",
      yearly: "not_for_sale",
    });
    const regular = result.variants.find((v) => v.variant === "regular");
    expect(regular).toMatchObject({ amount: 4900, source: "base" });
    expect(catalog.prices.get(regular?.price_id ?? "")).toMatchObject({
      product_id: result.remote_product_id,
      amount: 4900,
      currency: "EUR",
      tax_behavior: "exclusive",
    });
    expect(await products.findById(product.id)).toMatchObject({
      gwa_product_id_regular: regular?.price_id,
      gwa_product_id_monthly: null,
    });
  });

  test("synced again with nothing changed, changes nothing", async () => {
    const { sync, catalog, product } = await setUp();
    await sync.syncProduct(product.id);
    const writes = catalog.writes.length;
    const again = await sync.syncProduct(product.id);
    expect(actions(again)).toMatchObject({ regular: "unchanged", extended: "unchanged" });
    expect(catalog.writes).toHaveLength(writes);
  });

  test("a new price or tax behaviour updates the price at the gateway", async () => {
    const { sync, mappings, settings, catalog, product } = await setUp();
    await sync.syncProduct(product.id);
    await mappings.replaceForProduct(product.id, [
      { payment_type: "one_time", license_type: "regular", price: 3900, is_active: true },
    ]);
    const repriced = await sync.syncProduct(product.id);
    expect(repriced.variants.find((v) => v.variant === "regular")).toMatchObject({
      action: "updated",
      amount: 3900,
      source: "mapping",
    });
    expect(actions(repriced).extended).toBe("unchanged");
    settings.set("gateway_a", { tax_behavior: "inclusive" });
    const retaxed = await sync.syncProduct(product.id);
    expect(actions(retaxed)).toMatchObject({ regular: "updated", extended: "updated" });
    expect([...catalog.prices.values()].every((price) => price.tax_behavior === "inclusive")).toBe(true);
  });

  test("a price id an admin put on the product is re-linked when the gateway has it for this product", async () => {
    const { sync, catalog, product, products } = await setUp();
    const remote = await sync.createRemoteProduct(product.id);
    const price = catalog.addPrice({ product_id: remote.remote_product_id, amount: 4900 });
    await products.setGatewayAIds(product.id, { regular: price.id, extended: null, monthly: null, yearly: null });
    const result = await sync.syncProduct(product.id);
    expect(result.variants.find((v) => v.variant === "regular")).toMatchObject({
      action: "relinked",
      price_id: price.id,
    });
  });

  test("a price of another remote product is never reused: a new one is created", async () => {
    const { sync, catalog, product, products } = await setUp();
    const stranger = catalog.addPrice({ product_id: "pro_someone_else" });
    await products.setGatewayAIds(product.id, { regular: stranger.id, extended: null, monthly: null, yearly: null });
    const result = await sync.syncProduct(product.id);
    const regular = result.variants.find((v) => v.variant === "regular");
    expect(regular?.action).toBe("created");
    expect(regular?.price_id).not.toBe(stranger.id);
  });

  test("ids live per environment: live gets its own product and prices, never sandbox's", async () => {
    const { sync, settings, refs, product } = await setUp();
    const sandbox = await sync.syncProduct(product.id);
    settings.set("gateway_a", { environment: "live" });
    const live = await sync.syncProduct(product.id);
    expect(live.environment).toBe("live");
    expect(actions(live)).toMatchObject({ regular: "created", extended: "created" });
    const sandboxIds = new Set(sandbox.variants.map((v) => v.price_id));
    expect(live.variants.some((v) => v.price_id !== null && sandboxIds.has(v.price_id))).toBe(false);
    expect(await refs.list(product.id, "gateway_a", "sandbox")).toHaveLength(3);
  });

  test("of a product that does not exist is refused", async () => {
    const { sync } = await setUp();
    await expect(sync.syncProduct(crypto.randomUUID())).rejects.toBeInstanceOf(ProductNotFound);
  });
});

describe("the audit log", () => {
  test("a product created at the gateway is one gateway_product.create entry; finding it linked writes none", async () => {
    const { sync, audit, product } = await setUp();
    const created = await sync.createRemoteProduct(product.id);
    await sync.createRemoteProduct(product.id);
    expect(audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "gateway_product.create",
        target_type: "product",
        target_id: product.id,
        summary: {
          gateway: "gateway_a",
          environment: "sandbox",
          remote_product_id: created.remote_product_id,
          product_action: "created",
        },
      },
    ]);
  });

  test("a sync is one gateway_product.sync entry with what happened to each variant", async () => {
    const { sync, audit, product } = await setUp();
    const result = await sync.syncProduct(product.id);
    expect(audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "gateway_product.sync",
        target_type: "product",
        target_id: product.id,
        summary: {
          gateway: "gateway_a",
          environment: "sandbox",
          remote_product_id: result.remote_product_id,
          product_action: "created",
          variants: result.variants,
        },
      },
    ]);
  });

  test("a product that does not exist leaves no entry", async () => {
    const { sync, audit } = await setUp();
    await expect(sync.syncProduct(crypto.randomUUID())).rejects.toBeInstanceOf(ProductNotFound);
    await expect(sync.createRemoteProduct(crypto.randomUUID())).rejects.toBeInstanceOf(ProductNotFound);
    expect(audit.all()).toEqual([]);
  });
});
