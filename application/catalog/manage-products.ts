import { urlFieldsOf } from "../../domain/catalog/config-spec.ts";
import { configOf, DRIVER_CONFIG_SPECS } from "../../domain/catalog/drivers.ts";
import { ProductNotFound, SlugTaken } from "../../domain/catalog/errors.ts";
import { checkoutOptions } from "../../domain/catalog/pricing.ts";
import {
  type Product,
  type ProductDefinition,
  type ProductInput,
  validateProduct,
} from "../../domain/catalog/product.ts";
import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import { providerPurpose } from "../../domain/secrets/secret-purpose.ts";
import { type AuditEntry, redactSummary } from "../audit/ports.ts";
import {
  newDestinations,
  providerDestinations,
  recordNewDestinations,
  type SecretStore,
  type SecretUseLog,
} from "../secrets/ports.ts";
import { assertOutboundUrls, type OutboundUrlPolicy } from "../shared/outbound-urls.ts";
import type { ChangeSignal, PageRequest } from "../shared/ports.ts";
import type { PricingMappingRepository, ProductFilter, ProductRepository } from "./ports.ts";

export const CATALOG_TOPIC = "catalog";

export interface ManageProductsDeps {
  readonly products: ProductRepository;
  readonly mappings: PricingMappingRepository;
  readonly changes: ChangeSignal;
  readonly currency: string;
  readonly urls: OutboundUrlPolicy;
  /** `credentials_ref` must name a provider secret for `auth_mode` (a reference without a purpose takes it). */
  readonly secrets: Pick<SecretStore, "claim">;
  readonly uses: SecretUseLog;
}

/**
 * Validates a product, refuses addresses the marketplace must not call (SSRF) and a
 * `credentials_ref` that names a secret for another purpose.
 */
async function acceptDefinition(deps: ManageProductsDeps, input: ProductInput): Promise<ProductDefinition> {
  const definition = validateProduct(input);
  const spec = DRIVER_CONFIG_SPECS[definition.fulfillment_driver];
  await assertOutboundUrls(deps.urls, urlFieldsOf(spec, definition.fulfillment_config, "/fulfillment_config"));
  const saas = configOf(definition, "multitenant_saas");
  if (saas) {
    const use = { path: "/fulfillment_config/credentials_ref", ref: saas.credentials_ref };
    await deps.secrets.claim([{ ...use, purpose: providerPurpose(saas.auth_mode) }]);
  }
  return definition;
}

/**
 * A stored secret set to go to a new address is audited and told to operations, before the product
 * is saved: a failure then leaves the change unmade, never made unaudited. `via` names the product
 * (`product <id>`, or `new product <slug>` before it has an id).
 */
function recordDestinations(
  deps: ManageProductsDeps,
  before: ProductDefinition | undefined,
  after: ProductDefinition,
  via: string,
  actorId: string,
) {
  const previous = providerDestinations(before ? configOf(before, "multitenant_saas") : undefined);
  return recordNewDestinations(deps.uses, {
    actorId,
    via,
    previous: (ref) => previous.find((d) => d.ref === ref)?.address ?? null,
    destinations: newDestinations(previous, providerDestinations(configOf(after, "multitenant_saas"))),
  });
}

/** An admin's change to a product, for the audit log. */
function productEntry(
  actorId: string,
  action: "product.create" | "product.update" | "product.delete",
  productId: string,
  summary: Readonly<Record<string, unknown>>,
): AuditEntry {
  return { actor_id: actorId, action, target_type: "product", target_id: productId, summary: redactSummary(summary) };
}

/** The fields a replacing definition changes, each with its value before and after. */
function changesOf(before: ProductDefinition, after: ProductDefinition) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    const from = before[field as keyof ProductDefinition];
    // jsonb keeps its own key order: compare canonically, or an untouched config would count as changed.
    if (canonicalJson(from ?? null) !== canonicalJson(to ?? null)) changes[field] = { from, to };
  }
  return changes;
}

/** An admin's view: the whole record plus what a customer would be offered. */
export function makeGetAdminProduct(deps: ManageProductsDeps) {
  return async function getAdminProduct(id: string) {
    const product = await deps.products.findById(id);
    if (!product) throw new ProductNotFound();
    const mappings = await deps.mappings.listByProduct(id);
    return { product, checkout_options: checkoutOptions(product, mappings, deps.currency) };
  };
}

export function makeCreateProduct(deps: ManageProductsDeps) {
  return async function createProduct(input: ProductInput, actorId: string): Promise<Product> {
    const definition = await acceptDefinition(deps, input);
    await recordDestinations(deps, undefined, definition, `new product ${definition.slug}`, actorId);
    const product = await deps.products.insert(definition, (created) =>
      productEntry(actorId, "product.create", created.id, { ...definition }),
    );
    if (!product) throw new SlugTaken(definition.slug);
    await deps.changes.publish(CATALOG_TOPIC);
    return product;
  };
}

/** PUT semantics: the body replaces the product's definition entirely. */
export function makeUpdateProduct(deps: ManageProductsDeps) {
  return async function updateProduct(id: string, input: ProductInput, actorId: string): Promise<Product> {
    const definition = await acceptDefinition(deps, input);
    const before = await deps.products.findById(id);
    if (!before) throw new ProductNotFound();
    await recordDestinations(deps, before, definition, `product ${id}`, actorId);
    const product = await deps.products.update(
      id,
      definition,
      productEntry(actorId, "product.update", id, { changes: changesOf(before, definition) }),
    );
    if (!product) throw new ProductNotFound();
    await deps.changes.publish(CATALOG_TOPIC);
    return product;
  };
}

/** Products are archived, never erased: orders and fulfillments keep pointing at them. */
export function makeArchiveProduct(deps: ManageProductsDeps) {
  return async function archiveProduct(id: string, actorId: string): Promise<Product> {
    const existing = await deps.products.findById(id);
    if (!existing) throw new ProductNotFound();
    const { id: _, created_at: __, updated_at: ___, ...definition } = existing;
    const product = await deps.products.update(
      id,
      { ...definition, status: "archived" },
      productEntry(actorId, "product.delete", id, { status: { from: existing.status, to: "archived" } }),
    );
    if (!product) throw new ProductNotFound();
    await deps.changes.publish(CATALOG_TOPIC);
    return product;
  };
}

export function makeListAdminProducts(deps: ManageProductsDeps) {
  return async function listAdminProducts(filter: ProductFilter, page: PageRequest) {
    const result = await deps.products.list(filter, page);
    return {
      items: result.items.map(({ product, mappings }) => ({
        product,
        checkout_options: checkoutOptions(product, mappings, deps.currency),
      })),
      next_cursor: result.next_cursor,
    };
  };
}
