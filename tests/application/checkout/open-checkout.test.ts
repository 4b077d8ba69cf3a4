import { describe, expect, test } from "bun:test";
import { makeCalculateCheckout } from "../../../application/checkout/calculate-checkout.ts";
import { makeOpenCheckout } from "../../../application/checkout/open-checkout.ts";
import { UpstreamRejected, UpstreamServerError, UpstreamTimeout } from "../../../application/shared/errors.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { createInMemoryDiscounts } from "../../support/fakes/in-memory-discounts.ts";
import { createInMemoryGatewayBreakers } from "../../support/fakes/in-memory-gateway-breakers.ts";
import { createInMemoryGatewayProductRefs } from "../../support/fakes/in-memory-gateway-product-refs.ts";
import { createInMemoryOrderRepository } from "../../support/fakes/in-memory-order-repository.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";
import { createStaticGatewaySettings } from "../../support/fakes/static-gateway-settings.ts";

const ada = { id: "cus-ada", email: "ada@example.com", name: "Ada" };
const now = () => new Date("2026-11-29T12:00:00Z");

function setup(clock: () => Date = now) {
  const mappings = createInMemoryPricingMappingRepository();
  const products = createInMemoryProductRepository(mappings);
  const orders = createInMemoryOrderRepository();
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  const settings = createStaticGatewaySettings({ gateway_b: { environment: "live", tax_behavior: "inclusive" } });
  const { breakers, store } = createInMemoryGatewayBreakers(clock, 2);
  const calculate = makeCalculateCheckout({
    products,
    mappings,
    currency: "EUR",
    discounts: createInMemoryDiscounts(now).codes,
    clock: now,
  });
  const open = makeOpenCheckout({
    orders,
    access: { sign: async (id) => `signed-${id}`, verify: async () => true },
    gateways,
    settings,
    refs: createInMemoryGatewayProductRefs(),
    urls: { success: (id) => `https://shop.test/${id}`, cancel: (id) => `https://shop.test/${id}`, status: (id) => id },
    breakers,
  });
  return {
    orders,
    gateways,
    store,
    async checkout(payment_gateway?: "gateway_a" | "gateway_b", input: ProductInput = aLicenseProduct()) {
      const product = await products.insert(validateProduct({ ...input, default_payment_gateway: "gateway_a" }));
      if (!product) throw new Error("slug taken");
      const request = { items: [{ product_id: product.id, variant: "regular" as const }], payment_gateway };
      return open(ada, await calculate(request), false);
    },
  };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; extensions?: Record<string, unknown>; retryAfterSeconds?: number };
  }
  throw new Error("expected the call to fail");
}

describe("opening a checkout at a gateway chosen by default", () => {
  test("an outage moves the one order to the next gateway, bound to its environment and tax behaviour", async () => {
    const { checkout, gateways, orders } = setup();
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamTimeout("gateway", 15));
    const opened = await checkout();
    expect(opened).toMatchObject({ payment_gateway: "gateway_b", failed_over: true, failed_over_from: "gateway_a" });
    expect(orders.all()).toHaveLength(1);
    expect(orders.all()[0]).toMatchObject({
      payment_gateway: "gateway_b",
      gateway_environment: "live",
      tax_behavior: "inclusive",
      checkout_session_id: opened.checkout.session_id,
    });
    expect(JSON.parse(orders.all()[0]?.metadata ?? "{}")).toMatchObject({
      payment_gateway: "gateway_b",
      gateway_environment: "live",
    });
  });

  test("a refusal does not move it and does not count", async () => {
    const { checkout, gateways, store } = setup();
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamRejected("gateway", 400, "invalid_field", "bad"));
    expect((await failure(checkout())).code).toBe("GATEWAY_REJECTED");
    expect(gateways.gateway_b.callsOf("createCheckoutSession")).toHaveLength(0);
    expect(store.records.size).toBe(0);
  });

  test("once the breaker is open the failing gateway is not called at all", async () => {
    const { checkout, gateways } = setup();
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamServerError("gateway", 503));
    await checkout();
    await checkout();
    const calls = gateways.gateway_a.callsOf("createCheckoutSession").length;
    expect(await checkout()).toMatchObject({ payment_gateway: "gateway_b", failed_over: true });
    expect(gateways.gateway_a.callsOf("createCheckoutSession")).toHaveLength(calls);
  });

  test("a half-open trial refused by the gateway lets the next checkout try it at once", async () => {
    let at = now();
    const { checkout, gateways } = setup(() => at);
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamServerError("gateway", 503));
    await checkout();
    await checkout();
    at = new Date(at.getTime() + 31_000);
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamRejected("gateway", 422, "invalid_field", "bad"));
    expect((await failure(checkout())).code).toBe("GATEWAY_REJECTED");
    gateways.gateway_a.recover("createCheckoutSession");
    expect(await checkout()).toMatchObject({ payment_gateway: "gateway_a", failed_over: false });
  });

  test("with nowhere else to go, the gateway's own error stands", async () => {
    const { checkout, gateways } = setup();
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamServerError("gateway", 502));
    const only = aLicenseProduct({ enabled_payment_gateways: ["gateway_a"] });
    expect((await failure(checkout(undefined, only))).code).toBe("GATEWAY_SERVER_ERROR");
  });
});

describe("opening a checkout at a gateway the customer named", () => {
  test("an outage is GATEWAY_UNAVAILABLE with the alternatives, without trying them", async () => {
    const { checkout, gateways, orders } = setup();
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamServerError("gateway", 503));
    const error = await failure(checkout("gateway_a"));
    expect(error.code).toBe("GATEWAY_UNAVAILABLE");
    expect(error.extensions).toEqual({ gateway: "gateway_a", alternatives: ["gateway_b"] });
    expect(gateways.gateway_b.callsOf("createCheckoutSession")).toHaveLength(0);
    expect(orders.all()[0]?.status).toBe("checkout_failed");
  });

  test("an open breaker refuses before any order, saying when to come back", async () => {
    const { checkout, gateways, orders } = setup();
    gateways.gateway_a.fail("createCheckoutSession", new UpstreamServerError("gateway", 503));
    await checkout();
    await checkout();
    const before = orders.all().length;
    const error = await failure(checkout("gateway_a"));
    expect(error).toMatchObject({ code: "GATEWAY_UNAVAILABLE", retryAfterSeconds: 30 });
    expect(orders.all()).toHaveLength(before);
  });
});
