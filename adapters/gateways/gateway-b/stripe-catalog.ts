import type { GatewayCatalog } from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import { STRIPE_INTERVALS } from "./checkout-session-form.ts";
import type { StripeCall } from "./stripe-http.ts";
import { readPrice, readPriceMetadata, readProduct, readProductSearch } from "./stripe-responses.ts";

type Send = (call: StripeCall) => Promise<unknown>;

/** A quoted value in Stripe's search query language: backslash escapes a quote (and itself). */
const quoted = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

async function orUndefinedOn404<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof UpstreamRejected && error.status === 404) return undefined;
    throw error;
  }
}

/** Products and prices at Stripe. Prices are immutable there, so a new amount means a new price. */
export function createStripeCatalog(send: Send): GatewayCatalog {
  const get = (path: string) => send({ method: "GET", path });

  return {
    async findProductByMarketplaceId(marketplaceProductId) {
      const query = new URLSearchParams({
        query: `metadata['marketplace_product_id']:${quoted(marketplaceProductId)}`,
      });
      return readProductSearch(await get(`/v1/products/search?${query}`));
    },

    getProduct: (id) => orUndefinedOn404(get(`/v1/products/${encodeURIComponent(id)}`).then(readProduct)),

    async createProduct(input) {
      const form = {
        name: input.name,
        description: input.description === "" ? undefined : input.description,
        metadata: { marketplace_product_id: input.marketplace_product_id },
      };
      return readProduct(await send({ method: "POST", path: "/v1/products", form }));
    },

    getPrice: (id) => orUndefinedOn404(get(`/v1/prices/${encodeURIComponent(id)}`).then(readPrice)),

    /** `trial_days` is left out: Stripe takes a trial per checkout session, not per price. */
    async createPrice(input) {
      const form = {
        product: input.product_id,
        currency: input.currency.toLowerCase(),
        unit_amount: input.amount,
        tax_behavior: input.tax_behavior,
        recurring: input.billing_interval === null ? undefined : { interval: STRIPE_INTERVALS[input.billing_interval] },
        metadata: { variant: input.variant, marketplace_product_id: input.marketplace_product_id },
      };
      return readPrice(await send({ method: "POST", path: "/v1/prices", form }));
    },

    async updatePrice(price, { amount, currency, tax_behavior }) {
      const path = `/v1/prices/${encodeURIComponent(price.id)}`;
      const metadata = readPriceMetadata(await get(path));
      const form = {
        product: price.product_id,
        currency: currency.toLowerCase(),
        unit_amount: amount,
        tax_behavior,
        recurring: price.billing_interval === null ? undefined : { interval: STRIPE_INTERVALS[price.billing_interval] },
        metadata,
      };
      const replacement = readPrice(await send({ method: "POST", path: "/v1/prices", form }));
      readPrice(await send({ method: "POST", path, form: { active: false } }));
      return replacement;
    },
  };
}
