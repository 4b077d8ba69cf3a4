import type { GatewayCatalog, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../application/shared/errors.ts";
import { readPaddlePrice, readPaddleProduct, readProductPage } from "./paddle-catalog-schemas.ts";
import { type PaddleCall, sendPaddle } from "./paddle-http.ts";
import { paddleBillingCycle, paddleTaxMode, paddleTrialPeriod } from "./paddle-request-bodies.ts";

/** A bound on following `next` links, so a gateway that pages forever cannot hold a job forever. */
const MAX_PAGES = 50;

async function orUndefinedOn404<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof UpstreamRejected && error.status === 404) return undefined;
    throw error;
  }
}

/** Products and prices in the active environment's Paddle catalog (what the gateway_a product sync creates and updates). */
export function createPaddleCatalog(deps: { settings: GatewaySettingsSource }): GatewayCatalog {
  const send = async (call: PaddleCall) => sendPaddle(await deps.settings.resolve("gateway_a"), call);

  /** An active price of the product already made for the variant on these terms (prices are few per product). */
  const findPrice = async (input: Parameters<GatewayCatalog["createPrice"]>[0]) => {
    const query = { product_id: input.product_id, status: "active", per_page: "200" };
    const { data } = await send({ method: "GET", target: "/prices", query });
    if (!Array.isArray(data)) throw new UpstreamBadResponse("gateway", "the price list is not an array");
    return data
      .map(readPaddlePrice)
      .find(
        (price) =>
          price.variant === input.variant &&
          price.amount === input.amount &&
          price.currency === input.currency.toUpperCase() &&
          price.billing_interval === input.billing_interval &&
          price.tax_behavior === input.tax_behavior,
      );
  };

  return {
    async findProductByMarketplaceId(marketplaceProductId) {
      const settings = await deps.settings.resolve("gateway_a");
      let page = await sendPaddle(settings, {
        method: "GET",
        target: "/products",
        query: { per_page: "200", status: "active" },
      });
      for (let pages = 1; ; pages++) {
        const { products, next } = readProductPage(page);
        const found = products.find((product) => product.marketplace_product_id === marketplaceProductId);
        if (found) return found;
        if (next === null) return undefined;
        // Saying "not found" after a cut-off would make the sync create a duplicate product.
        if (pages >= MAX_PAGES) {
          throw new UpstreamBadResponse("gateway", `the product list goes past ${MAX_PAGES} pages`);
        }
        page = await sendPaddle(settings, { method: "GET", target: next });
      }
    },

    getProduct: (id) =>
      orUndefinedOn404(
        send({ method: "GET", target: `/products/${encodeURIComponent(id)}` }).then((r) => readPaddleProduct(r.data)),
      ),

    async createProduct(input) {
      const { data } = await send({
        method: "POST",
        target: "/products",
        body: {
          name: input.name,
          tax_category: "standard",
          ...(input.description ? { description: input.description } : {}),
          custom_data: { marketplace_product_id: input.marketplace_product_id },
        },
      });
      return readPaddleProduct(data);
    },

    getPrice: (id) =>
      orUndefinedOn404(
        send({ method: "GET", target: `/prices/${encodeURIComponent(id)}` }).then((r) => readPaddlePrice(r.data)),
      ),

    async createPrice(input) {
      // Paddle takes no idempotency key: a sync retried after a lost answer finds the price it made.
      const made = await findPrice(input);
      if (made) return made;
      const { data } = await send({
        method: "POST",
        target: "/prices",
        body: {
          product_id: input.product_id,
          description: input.variant,
          unit_price: { amount: String(input.amount), currency_code: input.currency.toUpperCase() },
          tax_mode: paddleTaxMode(input.tax_behavior),
          billing_cycle: paddleBillingCycle(input.billing_interval),
          trial_period: paddleTrialPeriod(input.billing_interval, input.trial_days),
          custom_data: { marketplace_product_id: input.marketplace_product_id, variant: input.variant },
        },
      });
      return readPaddlePrice(data);
    },

    async updatePrice(price, terms) {
      const { data } = await send({
        method: "PATCH",
        target: `/prices/${encodeURIComponent(price.id)}`,
        body: {
          unit_price: { amount: String(terms.amount), currency_code: terms.currency.toUpperCase() },
          tax_mode: paddleTaxMode(terms.tax_behavior),
        },
      });
      return readPaddlePrice(data);
    },
  };
}
