import type { GatewayCatalog, RemotePrice, RemoteProduct } from "../../../application/payments/ports.ts";

/**
 * A gateway's products and prices in memory, as gateway_a keeps them: ids the gateway made up,
 * prices whose terms can be changed in place. Every write is recorded; `forget` plays a gateway
 * that no longer knows an id (another environment's, a deleted one).
 */
export function createInMemoryGatewayCatalog() {
  const products = new Map<string, RemoteProduct>();
  const prices = new Map<string, RemotePrice>();
  const writes: string[] = [];
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}_${String(++sequence).padStart(4, "0")}`;

  const catalog: GatewayCatalog = {
    findProductByMarketplaceId: async (id) =>
      [...products.values()].find((product) => product.marketplace_product_id === id),
    getProduct: async (id) => products.get(id),
    async createProduct(input) {
      const product = { id: nextId("pro"), name: input.name, marketplace_product_id: input.marketplace_product_id };
      products.set(product.id, product);
      writes.push(`create product ${product.id}`);
      return product;
    },
    getPrice: async (id) => prices.get(id),
    async createPrice(input) {
      const price: RemotePrice = {
        id: nextId("pri"),
        product_id: input.product_id,
        amount: input.amount,
        currency: input.currency,
        billing_interval: input.billing_interval,
        variant: input.variant,
        active: true,
        tax_behavior: input.tax_behavior,
      };
      prices.set(price.id, price);
      writes.push(`create price ${price.id} ${input.variant} ${input.amount}`);
      return price;
    },
    async updatePrice(price, terms) {
      const updated = { ...price, ...terms };
      prices.set(price.id, updated);
      writes.push(`update price ${price.id} ${terms.amount}`);
      return updated;
    },
  };

  return {
    ...catalog,
    writes,
    prices: prices as ReadonlyMap<string, RemotePrice>,
    /** Seeds a price as if made at the gateway by hand. */
    addPrice(overrides: Partial<RemotePrice> & Pick<RemotePrice, "product_id">): RemotePrice {
      const price: RemotePrice = {
        id: nextId("pri"),
        amount: 4900,
        currency: "EUR",
        billing_interval: null,
        variant: "regular",
        active: true,
        tax_behavior: "exclusive",
        ...overrides,
      };
      prices.set(price.id, price);
      return price;
    },
    forget(id: string) {
      products.delete(id);
      prices.delete(id);
    },
  };
}
