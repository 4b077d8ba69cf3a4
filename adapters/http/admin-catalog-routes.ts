import { Elysia, t } from "elysia";
import type { describeDrivers } from "../../application/catalog/describe-drivers.ts";
import type { ProductFilter } from "../../application/catalog/ports.ts";
import type { PageRequest } from "../../application/shared/ports.ts";
import type { CheckoutOptions, PricingMapping, PricingMappingInput } from "../../domain/catalog/pricing.ts";
import type { Product, ProductInput } from "../../domain/catalog/product.ts";
import { CheckoutPreviewSchema, DriverDescriptionSchema } from "./admin-catalog-schemas.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import {
  AdminProductSchema,
  DeliveryModelSchema,
  MappingInputSchema,
  MappingSchema,
  ProductInputSchema,
  StatusSchema,
} from "./catalog-schemas.ts";
import { named, page } from "./openapi-models.ts";
import { asBody, toAdminProductBody } from "./serializers.ts";
import { Cursor, IdParams, ListLimit, pageRequest } from "./shared-schemas.ts";

interface AdminProductView {
  readonly product: Product;
  readonly checkout_options: CheckoutOptions;
}

export interface AdminCatalogDeps {
  readonly auth: AuthOptions;
  createProduct(input: ProductInput, actorId: string): Promise<Product>;
  updateProduct(id: string, input: ProductInput, actorId: string): Promise<Product>;
  archiveProduct(id: string, actorId: string): Promise<Product>;
  getAdminProduct(id: string): Promise<AdminProductView>;
  listAdminProducts(
    filter: ProductFilter,
    page: PageRequest,
  ): Promise<{ items: readonly AdminProductView[]; next_cursor: string | null }>;
  listPricingMappings(productId: string): Promise<PricingMapping[]>;
  savePricingMappings(
    productId: string,
    mappings: readonly PricingMappingInput[],
    actorId: string,
  ): Promise<PricingMapping[]>;
  describeDrivers: typeof describeDrivers;
}

const security = [{ bearer: [] }];

const PricingMappingSetSchema = named(
  "PricingMappingSet",
  t.Object({ product_id: t.String(), items: t.Array(MappingSchema) }),
);

export function createAdminCatalogRoutes(deps: AdminCatalogDeps) {
  const view = async (id: string) => {
    const { product, checkout_options } = await deps.getAdminProduct(id);
    return toAdminProductBody(product, checkout_options);
  };

  return new Elysia({ name: "admin-catalog-routes", tags: ["admin: catalog"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security } }, (app) =>
      app
        .get(
          "/api/admin/products",
          async ({ query }) => {
            const { limit, cursor, ...filter } = query;
            const result = await deps.listAdminProducts(filter, pageRequest({ cursor, limit }));
            return {
              items: result.items.map((v) => toAdminProductBody(v.product, v.checkout_options)),
              next_cursor: result.next_cursor,
            };
          },
          {
            query: t.Object({
              status: t.Optional(StatusSchema),
              delivery_model: t.Optional(DeliveryModelSchema),
              tag: t.Optional(t.String({ maxLength: 40 })),
              q: t.Optional(t.String({ maxLength: 200 })),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(AdminProductSchema) },
            detail: { summary: "List products of every status" },
          },
        )
        .post(
          "/api/admin/products",
          async ({ body, set, principal }) => {
            const product = await deps.createProduct(body as ProductInput, principal.userId);
            set.status = 201;
            return view(product.id);
          },
          {
            body: ProductInputSchema,
            response: { 201: AdminProductSchema },
            detail: { summary: "Create a product; model, driver and configuration are validated together" },
          },
        )
        .get("/api/admin/products/:id", ({ params }) => view(params.id), {
          params: IdParams,
          response: { 200: AdminProductSchema },
          detail: { summary: "One product with its checkout options" },
        })
        .put(
          "/api/admin/products/:id",
          async ({ params, body, principal }) =>
            view((await deps.updateProduct(params.id, body as ProductInput, principal.userId)).id),
          {
            params: IdParams,
            body: ProductInputSchema,
            response: { 200: AdminProductSchema },
            detail: { summary: "Replace a product's definition" },
          },
        )
        .delete(
          "/api/admin/products/:id",
          async ({ params, principal }) => view((await deps.archiveProduct(params.id, principal.userId)).id),
          {
            params: IdParams,
            response: { 200: AdminProductSchema },
            detail: { summary: "Archive a product (it stays for existing orders)" },
          },
        )
        .get(
          "/api/admin/products/:id/checkout-preview",
          async ({ params }) => {
            const { product, checkout_options } = await deps.getAdminProduct(params.id);
            return {
              product_id: product.id,
              status: product.status,
              purchasable: product.status === "published" && checkout_options.variants.length > 0,
              checkout_options: asBody(checkout_options),
            };
          },
          {
            params: IdParams,
            response: { 200: CheckoutPreviewSchema },
            detail: { summary: "What a customer would see at checkout: variants, prices, gateways, trial" },
          },
        )
        .get(
          "/api/admin/products/:id/pricing-mappings",
          async ({ params }) => ({ items: await deps.listPricingMappings(params.id), next_cursor: null }),
          {
            params: IdParams,
            response: { 200: page(MappingSchema) },
            detail: { summary: "Pricing mappings of a product, in saved order" },
          },
        )
        .post(
          "/api/admin/products/pricing-mappings/bulk",
          async ({ body, principal }) => ({
            product_id: body.product_id,
            items: await deps.savePricingMappings(
              body.product_id,
              body.mappings as PricingMappingInput[],
              principal.userId,
            ),
          }),
          {
            body: t.Object(
              {
                product_id: t.String({ maxLength: 64 }),
                mappings: t.Array(MappingInputSchema, { maxItems: 100 }),
              },
              { additionalProperties: false },
            ),
            response: {
              200: PricingMappingSetSchema,
            },
            detail: { summary: "Replace a product's pricing mappings; one invalid row saves nothing" },
          },
        )
        .get("/api/admin/fulfillment-drivers", () => ({ items: deps.describeDrivers() }), {
          response: { 200: t.Object({ items: t.Array(DriverDescriptionSchema) }) },
          detail: { summary: "Per driver: allowed delivery models, config JSON Schema and required keys" },
        }),
    );
}
