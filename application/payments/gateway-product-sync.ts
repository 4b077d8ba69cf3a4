import { ProductNotFound } from "../../domain/catalog/errors.ts";
import { resolvePrice } from "../../domain/catalog/pricing.ts";
import type { Product } from "../../domain/catalog/product.ts";
import { VARIANTS, type Variant } from "../../domain/catalog/variants.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { PricingMappingRepository, ProductRepository } from "../catalog/ports.ts";
import type { Mutex } from "../shared/ports.ts";
import type {
  GatewayCatalog,
  GatewayProductRefs,
  GatewayRef,
  GatewaySettingsSource,
  RemotePrice,
  RemoteProduct,
} from "./ports.ts";

const GATEWAY = "gateway_a" as const;

export interface GatewayProductSyncDeps {
  readonly products: ProductRepository;
  readonly mappings: PricingMappingRepository;
  readonly catalog: GatewayCatalog;
  readonly refs: GatewayProductRefs;
  readonly settings: GatewaySettingsSource;
  readonly mutex: Mutex;
  readonly currency: string;
}

export type SyncAction = "created" | "relinked" | "updated" | "unchanged" | "not_for_sale";

export interface VariantSync {
  readonly variant: Variant;
  readonly action: SyncAction;
  readonly price_id: string | null;
  readonly amount: number | null;
  readonly source: "mapping" | "base" | null;
}

export interface ProductSync {
  readonly product_id: string;
  readonly environment: GatewayEnvironment;
  readonly remote_product_id: string;
  readonly product_action: "created" | "relinked" | "unchanged";
  readonly variants: readonly VariantSync[];
}

/** An admin's action on a product's gateway-A counterpart, for the audit log. */
function gatewayProductEntry(
  actorId: string,
  action: "gateway_product.create" | "gateway_product.sync",
  productId: string,
  summary: Readonly<Record<string, unknown>>,
): AuditEntry {
  return {
    actor_id: actorId,
    action,
    target_type: "product",
    target_id: productId,
    summary: { gateway: GATEWAY, ...summary },
  };
}

/**
 * Keeps gateway A's catalog in line with ours. Ids live per environment; an id stored
 * for the other environment is never reused, and one the active environment does not know (404)
 * is re-linked or re-created. Everything for one product runs under a lock, so concurrent
 * requests cannot create a second remote product.
 */
export function makeGatewayProductSync(deps: GatewayProductSyncDeps) {
  async function load(productId: string) {
    const product = await deps.products.findById(productId);
    if (!product) throw new ProductNotFound();
    const environment = await deps.settings.activeEnvironment(GATEWAY);
    const refs = await deps.refs.list(productId, GATEWAY, environment);
    const elsewhere = await deps.refs.list(productId, GATEWAY, environment === "live" ? "sandbox" : "live");
    return { product, environment, refs, otherEnvironmentIds: new Set(elsewhere.map((r) => r.remote_id)) };
  }

  const save = (product: Product, environment: GatewayEnvironment, ref: GatewayRef, audit?: AuditEntry) =>
    deps.refs.put(product.id, GATEWAY, environment, ref, audit);

  /**
   * The remote product: the stored id when the active environment still knows it, else a lookup,
   * else a new one. `audit` names the entry stored with a new link; an unchanged one writes none.
   */
  async function ensureProduct(
    product: Product,
    environment: GatewayEnvironment,
    refs: readonly GatewayRef[],
    audit?: (remote: RemoteProduct, action: "created" | "relinked") => AuditEntry,
  ) {
    const stored = refs.find((r) => r.slot === "product");
    const existing = stored ? await deps.catalog.getProduct(stored.remote_id) : undefined;
    if (existing) return { remote: existing, action: "unchanged" as const };
    const found = await deps.catalog.findProductByMarketplaceId(product.id);
    const remote: RemoteProduct =
      found ??
      (await deps.catalog.createProduct({
        marketplace_product_id: product.id,
        name: product.name,
        description: product.description,
      }));
    const action = found ? ("relinked" as const) : ("created" as const);
    const ref = { slot: "product" as const, remote_id: remote.id, amount: null, currency: null, tax_behavior: null };
    await save(product, environment, ref, audit?.(remote, action));
    return { remote, action };
  }

  /**
   * The price id to try in the active environment: the one stored for it, else the id on the
   * product record (`gwa_product_id_*`, which an admin may have set by hand) unless that id is
   * known to be the other environment's.
   */
  function candidatePriceId(
    product: Product,
    refs: readonly GatewayRef[],
    otherEnvironmentIds: ReadonlySet<string>,
    variant: Variant,
  ) {
    const stored = refs.find((r) => r.slot === variant)?.remote_id;
    if (stored) return { id: stored, stored: true };
    const onRecord = product[`gwa_product_id_${variant}`];
    return onRecord && !otherEnvironmentIds.has(onRecord) ? { id: onRecord, stored: false } : undefined;
  }

  async function syncVariant(
    product: Product,
    remote: RemoteProduct,
    environment: GatewayEnvironment,
    candidate: { id: string; stored: boolean } | undefined,
    variant: Variant,
  ): Promise<VariantSync> {
    const mappings = await deps.mappings.listByProduct(product.id);
    const taxBehavior = await deps.settings.taxBehavior(GATEWAY);
    const resolved = resolvePrice(product, mappings, variant);
    if (!resolved) return { variant, action: "not_for_sale", price_id: null, amount: null, source: null };
    let price: RemotePrice | undefined = candidate ? await deps.catalog.getPrice(candidate.id) : undefined;
    let action: SyncAction;
    if (!price || price.product_id !== remote.id) {
      action = "created";
      price = await deps.catalog.createPrice({
        product_id: remote.id,
        marketplace_product_id: product.id,
        variant,
        amount: resolved.price,
        currency: deps.currency,
        billing_interval: variant === "monthly" || variant === "yearly" ? variant : null,
        trial_days:
          (variant === "monthly" || variant === "yearly") && product.supports_trial ? product.trial_days : null,
        tax_behavior: taxBehavior,
      });
    } else if (
      price.amount !== resolved.price ||
      price.currency !== deps.currency ||
      price.tax_behavior !== taxBehavior
    ) {
      price = await deps.catalog.updatePrice(price, {
        amount: resolved.price,
        currency: deps.currency,
        tax_behavior: taxBehavior,
      });
      action = "updated";
    } else {
      action = candidate?.stored ? "unchanged" : "relinked";
    }
    await save(product, environment, {
      slot: variant,
      remote_id: price.id,
      amount: price.amount,
      currency: price.currency,
      tax_behavior: price.tax_behavior,
    });
    return { variant, action, price_id: price.id, amount: price.amount, source: resolved.source };
  }

  return {
    /** `POST /api/admin/gateway_a/products/create`: looks up before it creates. */
    async createRemoteProduct(productId: string, actorId: string): Promise<ProductSync> {
      return deps.mutex.withLock(`gateway_a:product:${productId}`, async () => {
        const { product, environment, refs } = await load(productId);
        const { remote, action } = await ensureProduct(product, environment, refs, (linked, linking) =>
          gatewayProductEntry(actorId, "gateway_product.create", product.id, {
            environment,
            remote_product_id: linked.id,
            product_action: linking,
          }),
        );
        return {
          product_id: product.id,
          environment,
          remote_product_id: remote.id,
          product_action: action,
          variants: [],
        };
      });
    },

    /**
     * `PUT /api/admin/gateway_a/products/{id}/sync`: each of the four variants gets the price our
     * catalog resolves for it (a pricing mapping, else the base price; none: not for sale); a
     * missing price is created, one with other terms updated, a matching one kept.
     */
    async syncProduct(productId: string, actorId: string): Promise<ProductSync> {
      return deps.mutex.withLock(`gateway_a:product:${productId}`, async () => {
        const { product, environment, refs, otherEnvironmentIds } = await load(productId);
        const { remote, action } = await ensureProduct(product, environment, refs);
        const variants: VariantSync[] = [];
        for (const variant of VARIANTS) {
          const candidate = candidatePriceId(product, refs, otherEnvironmentIds, variant);
          variants.push(await syncVariant(product, remote, environment, candidate, variant));
        }
        const ids = Object.fromEntries(variants.map((v) => [v.variant, v.price_id])) as Record<Variant, string | null>;
        await deps.products.setGatewayAIds(
          product.id,
          ids,
          gatewayProductEntry(actorId, "gateway_product.sync", product.id, {
            environment,
            remote_product_id: remote.id,
            product_action: action,
            variants: variants.map((variant) => ({ ...variant })),
          }),
        );
        return { product_id: product.id, environment, remote_product_id: remote.id, product_action: action, variants };
      });
    },
  };
}
