import type { GatewayCatalog } from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import { canonicalJson } from "../../../domain/checkout/canonical-json.ts";
import { hmacSha256Hex } from "../../../kit/hmac.ts";
import { STRIPE_INTERVALS } from "./checkout-session-form.ts";
import type { StripeCall } from "./stripe-http.ts";
import { readPrice, readPriceMetadata, readProduct, readProductSearch } from "./stripe-responses.ts";

type Send = (call: StripeCall) => Promise<unknown>;

/** A quoted value in Stripe's search query language: backslash escapes a quote (and itself). */
const quoted = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

/**
 * An Idempotency-Key for creating what `form` describes: the same request asked again (after a
 * lost answer) replays what Stripe made; other terms are another key, so never Stripe's 400 for a
 * key reused with other parameters.
 */
const formKey = async (prefix: string, form: object) =>
  `${prefix}-${(await hmacSha256Hex("stripe-create", canonicalJson(form))).slice(0, 32)}`;

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
      // Stripe's search lags behind its writes: a sync retried after a lost answer would not find
      // the product it made. The same product asked for again replays it.
      const idempotencyKey = await formKey(`product-${input.marketplace_product_id}`, form);
      return readProduct(await send({ method: "POST", path: "/v1/products", form, idempotencyKey }));
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
      const idempotencyKey = await formKey(`price-${input.marketplace_product_id}-${input.variant}`, form);
      return readPrice(await send({ method: "POST", path: "/v1/prices", form, idempotencyKey }));
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
      // Keyed by the price it replaces: a retry replays the replacement, a later change makes another.
      const idempotencyKey = await formKey(`price-replacing-${price.id}`, form);
      const replacement = readPrice(await send({ method: "POST", path: "/v1/prices", form, idempotencyKey }));
      readPrice(await send({ method: "POST", path, form: { active: false } }));
      return replacement;
    },
  };
}
