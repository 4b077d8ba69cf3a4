import { describe, expect, test } from "bun:test";
import {
  CATALOG_TOPIC,
  makeArchiveProduct,
  makeCreateProduct,
  makeGetAdminProduct,
  makeListAdminProducts,
  makeUpdateProduct,
} from "../../../application/catalog/manage-products.ts";
import type { ProductInput } from "../../../domain/catalog/product.ts";
import { SecretPurposeMismatch } from "../../../domain/secrets/errors.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { createInMemoryAuditLogWriter } from "../../support/fakes/in-memory-audit-log-writer.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";
import { createInMemorySecretStore } from "../../support/fakes/in-memory-secret-store.ts";
import { createRecordingSecretUseLog } from "../../support/fakes/recording-secret-use-log.ts";
import { createStaticOutboundUrlPolicy } from "../../support/fakes/static-outbound-url-policy.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

/** The use cases as the signed-in admin `ADMIN` calls them. */
function setup(refusedHosts: readonly string[] = []) {
  const audit = createInMemoryAuditLogWriter();
  const mappings = createInMemoryPricingMappingRepository(audit);
  const products = createInMemoryProductRepository(mappings, audit);
  const changes = createInMemoryChangeSignal();
  const urls = createStaticOutboundUrlPolicy(refusedHosts);
  const secrets = createInMemorySecretStore();
  const uses = createRecordingSecretUseLog();
  const deps = { products, mappings, changes, urls, currency: "USD", secrets, uses };
  const createProduct = makeCreateProduct(deps);
  const updateProduct = makeUpdateProduct(deps);
  const archiveProduct = makeArchiveProduct(deps);
  return {
    products,
    mappings,
    changes,
    urls,
    audit,
    secrets,
    uses,
    create: (input: ProductInput) => createProduct(input, ADMIN),
    update: (id: string, input: ProductInput) => updateProduct(id, input, ADMIN),
    archive: (id: string) => archiveProduct(id, ADMIN),
    get: makeGetAdminProduct(deps),
    list: makeListAdminProducts(deps),
  };
}

const fieldCodes = (error: unknown) =>
  ((error as { errors?: { path: string; code?: string }[] }).errors ?? []).map((e) => `${e.path} ${e.code}`);

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; errors?: { path: string; code?: string }[] };
  }
  throw new Error("expected the call to fail");
}

describe("createProduct", () => {
  test("stores the normalized product and tells every instance the catalog changed", async () => {
    const { create, products, changes } = setup();
    const product = await create(aLicenseProduct({ slug: "ledger", name: "  Ledger  ", status: undefined }));
    expect(product).toMatchObject({ slug: "ledger", name: "Ledger", status: "draft", description: "" });
    expect(await products.findById(product.id)).toEqual(product);
    expect(changes.published).toEqual([CATALOG_TOPIC]);
  });

  test("refuses an invalid product with every offending field, storing and signalling nothing", async () => {
    const { create, products, changes } = setup();
    const error = await failure(
      create(aLicenseProduct({ slug: "Not A Slug", price_regular: -1, fulfillment_config: {} })),
    );
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(fieldCodes(error)).toEqual(
      expect.arrayContaining([
        "/slug INVALID_SLUG",
        "/price_regular INVALID_PRICE",
        "/fulfillment_config/license_type REQUIRED",
      ]),
    );
    expect(await products.count()).toBe(0);
    expect(changes.published).toEqual([]);
  });

  test("refuses a configuration that points at a host the marketplace must not call", async () => {
    const { create, products, changes, urls } = setup(["169.254.169.254"]);
    const input = aPointOfSaleProduct();
    const management = { ...(input.fulfillment_config?.management as object), base_url: "http://169.254.169.254/" };
    const error = await failure(create({ ...input, fulfillment_config: { ...input.fulfillment_config, management } }));
    expect(error.code).toBe("URL_NOT_ALLOWED");
    expect(fieldCodes(error)).toEqual(["/fulfillment_config/management/base_url URL_NOT_ALLOWED"]);
    expect(urls.asked.sort()).toEqual(["http://169.254.169.254/", "https://provider.example.com"]);
    expect(await products.count()).toBe(0);
    expect(changes.published).toEqual([]);
  });

  test("a slug another product uses is SLUG_TAKEN, and the first product stays as it was", async () => {
    const { create, products, changes } = setup();
    const first = await create(aLicenseProduct({ slug: "ledger", name: "First" }));
    const error = await failure(create(aLicenseProduct({ slug: "ledger", name: "Second" })));
    expect(error.code).toBe("SLUG_TAKEN");
    expect(products.all()).toEqual([first]);
    expect(changes.published).toEqual([CATALOG_TOPIC]);
  });
});

describe("updateProduct", () => {
  test("replaces the whole definition: fields left out go back to their defaults", async () => {
    const { create, update, products, changes } = setup();
    const created = await create(aLicenseProduct({ slug: "ledger", tags: ["books"], description: "Old" }));
    const updated = await update(
      created.id,
      aLicenseProduct({ slug: "ledger-2", name: "Ledger 2", tags: undefined, description: undefined }),
    );
    expect(updated).toMatchObject({ id: created.id, slug: "ledger-2", name: "Ledger 2", tags: [], description: "" });
    expect(updated.created_at).toEqual(created.created_at);
    expect(await products.findById(created.id)).toEqual(updated);
    expect(changes.published).toEqual([CATALOG_TOPIC, CATALOG_TOPIC]);
  });

  test("an unknown product is PRODUCT_NOT_FOUND, and nothing is signalled", async () => {
    const { update, changes } = setup();
    const error = await failure(update(crypto.randomUUID(), aLicenseProduct()));
    expect(error.code).toBe("PRODUCT_NOT_FOUND");
    expect(changes.published).toEqual([]);
  });

  test("taking another product's slug is SLUG_TAKEN and leaves the product unchanged", async () => {
    const { create, update, products } = setup();
    await create(aLicenseProduct({ slug: "taken" }));
    const mine = await create(aLicenseProduct({ slug: "mine" }));
    expect((await failure(update(mine.id, aLicenseProduct({ slug: "taken" })))).code).toBe("SLUG_TAKEN");
    expect((await products.findById(mine.id))?.slug).toBe("mine");
  });

  test("validates the new definition before anything is written", async () => {
    const { create, update, products } = setup();
    const mine = await create(aLicenseProduct({ slug: "mine" }));
    const error = await failure(update(mine.id, aLicenseProduct({ slug: "mine", supports_trial: true })));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(fieldCodes(error)).toContain("/supports_trial TRIAL_REQUIRES_RECURRING");
    expect(await products.findById(mine.id)).toEqual(mine);
  });

  test("refuses an artifact source on a refused host", async () => {
    const { create, update } = setup(["10.0.0.5"]);
    const mine = await create(aLicenseProduct({ slug: "mine" }));
    const config = { license_type: "commercial", artifact_source: "http://10.0.0.5/app", max_activations: 3 };
    const error = await failure(update(mine.id, aLicenseProduct({ slug: "mine", fulfillment_config: config })));
    expect(fieldCodes(error)).toEqual(["/fulfillment_config/artifact_source URL_NOT_ALLOWED"]);
  });
});

describe("archiveProduct", () => {
  test("archives the product, keeping the rest of its definition, and signals the change", async () => {
    const { create, archive, products, changes } = setup();
    const created = await create(aLicenseProduct({ slug: "ledger", status: "published", price_regular: 1200 }));
    const archived = await archive(created.id);
    const { status: _, updated_at: __, ...before } = created;
    expect(archived).toMatchObject({ ...before, status: "archived" });
    expect((await products.findById(created.id))?.status).toBe("archived");
    expect(changes.published).toEqual([CATALOG_TOPIC, CATALOG_TOPIC]);
  });

  test("an unknown product is PRODUCT_NOT_FOUND", async () => {
    const { archive, changes } = setup();
    expect((await failure(archive(crypto.randomUUID()))).code).toBe("PRODUCT_NOT_FOUND");
    expect(changes.published).toEqual([]);
  });
});

describe("getAdminProduct", () => {
  test("returns the whole record with what a customer would be offered", async () => {
    const { create, get, mappings } = setup();
    const created = await create(aLicenseProduct({ price_regular: 4900, price_extended: null }));
    await mappings.replaceForProduct(created.id, [
      { payment_type: "one_time", license_type: "extended", price: 19900, is_active: true },
    ]);
    const found = await get(created.id);
    expect(found.product).toEqual(created);
    expect(found.product.fulfillment_config).toMatchObject({ artifact_source: "https://downloads.example.com/app" });
    expect(found.checkout_options.variants.map((v) => [v.variant, v.price, v.currency])).toEqual([
      ["regular", 4900, "USD"],
      ["extended", 19900, "USD"],
    ]);
  });

  test("an unknown product is PRODUCT_NOT_FOUND", async () => {
    expect((await failure(setup().get(crypto.randomUUID()))).code).toBe("PRODUCT_NOT_FOUND");
  });
});

describe("listAdminProducts", () => {
  test("lists products of every status, filtered and paged, each with its checkout options", async () => {
    const { create, list } = setup();
    await create(aLicenseProduct({ name: "Alpha", status: "draft" }));
    await create(aLicenseProduct({ name: "Bravo", status: "published" }));
    await create(aLicenseProduct({ name: "Charlie", status: "archived" }));
    const first = await list({}, { limit: 2 });
    expect(first.items.map((i) => i.product.name)).toEqual(["Alpha", "Bravo"]);
    const rest = await list({}, { limit: 2, cursor: first.next_cursor ?? "" });
    expect(rest.items.map((i) => i.product.name)).toEqual(["Charlie"]);
    expect(rest.next_cursor).toBeNull();
    const drafts = await list({ status: "draft" }, { limit: 10 });
    expect(drafts.items.map((i) => i.product.name)).toEqual(["Alpha"]);
    expect(drafts.items[0]?.checkout_options.variants.map((v) => v.variant)).toEqual(["regular", "extended"]);
  });

  test("a cursor the API did not issue is refused as INVALID_CURSOR", async () => {
    const error = await failure(setup().list({}, { limit: 2, cursor: "not-a-cursor" }));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(fieldCodes(error)).toEqual(["/cursor INVALID_CURSOR"]);
  });
});

describe("the audit log", () => {
  test("a created product is one product.create entry by the admin, holding its definition", async () => {
    const { create, audit } = setup();
    const product = await create(aLicenseProduct({ slug: "ledger", name: "Ledger" }));
    expect(audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "product.create",
        target_type: "product",
        target_id: product.id,
        summary: expect.objectContaining({ slug: "ledger", name: "Ledger", fulfillment_driver: "license_download" }),
      },
    ]);
  });

  test("an update holds only the fields it changed, each before and after", async () => {
    const { create, update, audit } = setup();
    const created = await create(aLicenseProduct({ slug: "ledger", name: "Ledger", price_regular: 4900 }));
    await update(created.id, aLicenseProduct({ slug: "ledger", name: "Ledger Pro", price_regular: 5900 }));
    expect(audit.all().at(-1)).toEqual({
      actor_id: ADMIN,
      action: "product.update",
      target_type: "product",
      target_id: created.id,
      summary: { changes: { name: { from: "Ledger", to: "Ledger Pro" }, price_regular: { from: 4900, to: 5900 } } },
    });
  });

  test("an archive is product.delete with the status it left", async () => {
    const { create, archive, audit } = setup();
    const created = await create(aLicenseProduct({ status: "published" }));
    await archive(created.id);
    expect(audit.all().at(-1)).toMatchObject({
      action: "product.delete",
      target_id: created.id,
      summary: { status: { from: "published", to: "archived" } },
    });
  });

  test("a change that fails leaves no entry", async () => {
    const { create, update, archive, audit } = setup();
    const mine = await create(aLicenseProduct({ slug: "mine" }));
    await failure(create(aLicenseProduct({ slug: "mine" })));
    await failure(create(aLicenseProduct({ slug: "Not A Slug" })));
    await failure(update(crypto.randomUUID(), aLicenseProduct()));
    await failure(update(mine.id, aLicenseProduct({ slug: "mine", supports_trial: true })));
    await failure(archive(crypto.randomUUID()));
    expect(audit.all().map((entry) => entry.action)).toEqual(["product.create"]);
  });
});

describe("the secret a product sends", () => {
  const withConfig = (config: Record<string, unknown>) => {
    const product = aPointOfSaleProduct();
    return { ...product, fulfillment_config: { ...product.fulfillment_config, ...config } };
  };

  test.each(["gateway_b_sandbox_webhook_secret", "gateway_a_live_webhook_secret", "gateway_b_live_api_key"])(
    "credentials_ref %s is refused on create and update naming both purposes; nothing is stored",
    async (ref) => {
      const t = setup();
      const refused = await failure(t.create(withConfig({ credentials_ref: ref })));
      expect(refused).toBeInstanceOf(SecretPurposeMismatch);
      expect(fieldCodes(refused)).toEqual(["/fulfillment_config/credentials_ref SECRET_PURPOSE_MISMATCH"]);
      expect((refused as SecretPurposeMismatch).message).toMatch(
        /is a gateway_. (sandbox|live) .* provider bearer token/,
      );
      expect(t.products.all()).toEqual([]);
      const product = await t.create(aPointOfSaleProduct());
      await failure(t.update(product.id, withConfig({ credentials_ref: ref })));
      expect(t.products.all()[0]?.fulfillment_config).toMatchObject({ credentials_ref: "pos_provider_token" });
    },
  );

  test("switching auth_mode does not turn a bearer token into an HMAC key", async () => {
    const t = setup();
    const product = await t.create(aPointOfSaleProduct());
    expect(fieldCodes(await failure(t.update(product.id, withConfig({ auth_mode: "hmac" }))))).toEqual([
      "/fulfillment_config/credentials_ref SECRET_PURPOSE_MISMATCH",
    ]);
  });

  test("a save that fails still leaves the new address audited and told", async () => {
    const t = setup();
    const product = await t.create(aPointOfSaleProduct());
    t.products.update = async () => {
      throw new Error("connection lost");
    };
    const moved = { ...withConfig({ base_url: "https://collector.example" }), slug: product.slug };
    await expect(t.update(product.id, moved)).rejects.toThrow();
    expect(t.uses.alerts.map((a) => a.occurrence)).toEqual([
      "https://provider.example.com",
      "https://collector.example",
    ]);
    expect(t.uses.entries[1]).toMatchObject({ summary: { address: "https://collector.example" } });
  });

  test("a new address for the credentials is audited and told to operations; an unchanged one is not", async () => {
    const t = setup();
    const product = await t.create(aPointOfSaleProduct());
    expect(t.uses.entries).toMatchObject([
      {
        action: "secret.destination_change",
        target_id: "pos_provider_token",
        summary: { address: "https://provider.example.com", previous: null, via: `new product ${product.slug}` },
      },
    ]);
    await t.update(product.id, { ...aPointOfSaleProduct(), slug: product.slug, name: "Renamed" });
    expect(t.uses.entries).toHaveLength(1);
    await t.update(product.id, { ...withConfig({ base_url: "https://collector.example" }), slug: product.slug });
    expect(t.uses.entries[1]).toEqual({
      actor_id: ADMIN,
      action: "secret.destination_change",
      target_type: "secret",
      target_id: "pos_provider_token",
      summary: {
        ref: "pos_provider_token",
        purpose: "provider_bearer_token",
        address: "https://collector.example",
        previous: "https://provider.example.com",
        via: `product ${product.id}`,
      },
    });
    expect(t.uses.alerts.map((a) => [a.kind, a.target_id, a.occurrence])).toEqual([
      ["secret_destination", "pos_provider_token", "https://provider.example.com"],
      ["secret_destination", "pos_provider_token", "https://collector.example"],
    ]);
  });
});
