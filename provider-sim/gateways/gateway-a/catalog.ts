import type { SimClock } from "../../clock.ts";
import { newGatewayId } from "../ids.ts";
import { PaddleError } from "./errors.ts";
import type { PaddlePrice, PaddleProduct } from "./model.ts";
import type { PriceInput, PriceUpdate, ProductInput } from "./requests.ts";

export interface ProductFilter {
  readonly ids?: readonly string[];
  readonly status?: readonly string[];
}

export interface PriceFilter extends ProductFilter {
  readonly productIds?: readonly string[];
}

export type GatewayACatalog = ReturnType<typeof createGatewayACatalog>;

const matches = (filter: readonly string[] | undefined, value: string) => !filter || filter.includes(value);

/** Catalog products and prices of the gateway_a sandbox, in creation order. */
export function createGatewayACatalog(clock: SimClock) {
  const products = new Map<string, PaddleProduct>();
  /** Non-catalog (`custom`) products made inline with a price: kept apart, as catalog lists leave them out. */
  const customProducts = new Map<string, PaddleProduct>();
  const prices = new Map<string, PaddlePrice>();
  const now = () => clock.now().toISOString();

  function buildProduct(input: ProductInput, type: PaddleProduct["type"]): PaddleProduct {
    return { id: newGatewayId("pro"), type, status: "active", created_at: now(), updated_at: now(), ...input };
  }

  function buildPrice(input: PriceInput, productId: string, type: PaddlePrice["type"]): PaddlePrice {
    return {
      id: newGatewayId("pri"),
      product_id: productId,
      type,
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 100 },
      status: "active",
      created_at: now(),
      updated_at: now(),
      ...input,
    };
  }

  function product(id: string): PaddleProduct {
    const found = products.get(id) ?? customProducts.get(id);
    if (!found) throw PaddleError.notFound(id);
    return found;
  }

  function price(id: string): PaddlePrice {
    const found = prices.get(id);
    if (!found) throw PaddleError.notFound(id);
    return found;
  }

  return {
    product,
    price,
    createProduct(input: ProductInput): PaddleProduct {
      const created = buildProduct(input, "standard");
      products.set(created.id, created);
      return created;
    },
    products: (filter: ProductFilter) =>
      [...products.values()].filter((p) => matches(filter.ids, p.id) && matches(filter.status, p.status)),
    createPrice(input: PriceInput & { readonly product_id: string }): PaddlePrice {
      const created = buildPrice(input, product(input.product_id).id, "standard");
      prices.set(created.id, created);
      return created;
    },
    prices: (filter: PriceFilter) =>
      [...prices.values()].filter(
        (p) =>
          matches(filter.ids, p.id) && matches(filter.status, p.status) && matches(filter.productIds, p.product_id),
      ),
    updatePrice(id: string, update: PriceUpdate): PaddlePrice {
      const updated = { ...price(id), ...update, updated_at: now() };
      prices.set(id, updated);
      return updated;
    },
    /** A non-catalog price for one transaction, with its own non-catalog product when one is given inline. */
    customPrice(input: PriceInput & { readonly product_id: string | null; readonly product: ProductInput | null }): {
      price: PaddlePrice;
      product: PaddleProduct;
    } {
      const { product_id, product: inline, ...rest } = input;
      const owner = inline ? buildProduct(inline, "custom") : product(product_id as string);
      // A non-catalog product is an entity of its own: later changes can name it by id.
      if (inline) customProducts.set(owner.id, owner);
      return { price: buildPrice(rest, owner.id, "custom"), product: owner };
    },
    clear() {
      products.clear();
      customProducts.clear();
      prices.clear();
    },
  };
}
