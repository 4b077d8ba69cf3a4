import { describe, expect, test } from "bun:test";
import type { CheckoutRequest } from "../../../application/checkout/calculate-checkout.ts";
import { makeCreateCheckout } from "../../../application/checkout/create-checkout.ts";
import { UpstreamServerError } from "../../../application/shared/errors.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { createInMemoryCustomerDirectory } from "../../support/fakes/in-memory-customer-directory.ts";
import { createInMemoryDiscounts } from "../../support/fakes/in-memory-discounts.ts";
import { createInMemoryGatewayBreakers } from "../../support/fakes/in-memory-gateway-breakers.ts";
import { createInMemoryGatewayProductRefs } from "../../support/fakes/in-memory-gateway-product-refs.ts";
import { createInMemoryGuestCustomers } from "../../support/fakes/in-memory-guest-customers.ts";
import { createInMemoryOrderRepository } from "../../support/fakes/in-memory-order-repository.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";
import { createStaticGatewaySettings } from "../../support/fakes/static-gateway-settings.ts";

const ada = { id: "cus-ada", email: "ada@example.com", name: "Ada" };
const bob = { id: "cus-bob", email: "bob@example.com", name: "Bob" };

function setup(options: { clientKey?: string } = {}) {
  const mappings = createInMemoryPricingMappingRepository();
  const products = createInMemoryProductRepository(mappings);
  const orders = createInMemoryOrderRepository();
  const customers = createInMemoryCustomerDirectory([ada, bob]);
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b", options),
  };
  const settings = createStaticGatewaySettings({ gateway_b: { environment: "live", tax_behavior: "inclusive" } });
  const refs = createInMemoryGatewayProductRefs();
  const withAccess = (access?: string) => (access ? `&access=${access}` : "");
  const urls = {
    success: (orderId: string, access?: string) => `https://shop.test/orders/${orderId}?paid=1${withAccess(access)}`,
    cancel: (orderId: string, access?: string) =>
      `https://shop.test/orders/${orderId}?cancelled=1${withAccess(access)}`,
    status: (orderId: string, access?: string) => `https://shop.test/orders/${orderId}?${withAccess(access).slice(1)}`,
  };
  const guests = createInMemoryGuestCustomers([ada]);
  const discounts = createInMemoryDiscounts(() => new Date("2026-11-28T12:00:00Z"));
  const createCheckout = makeCreateCheckout({
    products,
    mappings,
    currency: "EUR",
    discounts: discounts.codes,
    clock: () => new Date("2026-11-28T12:00:00Z"),
    orders,
    customers,
    guests,
    access: {
      sign: async (orderId) => `signed-${orderId}`,
      verify: async (orderId, token) => token === `signed-${orderId}`,
    },
    gateways,
    settings,
    refs,
    urls,
    breakers: createInMemoryGatewayBreakers(() => new Date("2026-11-28T12:00:00Z")).breakers,
  });
  return {
    createCheckout,
    orders,
    customers,
    guests,
    refs,
    gatewayB: gateways.gateway_b,
    gatewayA: gateways.gateway_a,
    async aProduct(input: ProductInput = aLicenseProduct({ default_payment_gateway: "gateway_b" })) {
      const product = await products.insert(validateProduct(input));
      if (!product) throw new Error("slug taken");
      return product;
    },
  };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; errors?: { path: string; code?: string }[] };
  }
  throw new Error("expected the call to fail");
}

const onlyGatewayB = aLicenseProduct({ enabled_payment_gateways: ["gateway_b"], default_payment_gateway: "gateway_b" });

const aRequest = (productId: string): CheckoutRequest => ({
  items: [{ product_id: productId, variant: "regular", quantity: 2 }],
});

describe("createCheckout", () => {
  test("stores a pending order with its items and sends the customer to the gateway's checkout", async () => {
    const { createCheckout, orders, aProduct } = setup();
    const product = await aProduct();
    const body = await createCheckout({ customerId: ada.id }, aRequest(product.id));

    const details = await orders.find(body.order_id);
    expect(details?.order).toMatchObject({
      customer_id: ada.id,
      status: "pending_payment",
      total: 9800,
      due_today: 9800,
      currency: "EUR",
      payment_gateway: "gateway_b",
      gateway_environment: "live",
      tax_behavior: "inclusive",
      checkout_session_id: body.checkout.session_id,
      checkout_url: body.checkout.url,
    });
    expect(details?.items.map((i) => [i.product_id, i.variant, i.quantity, i.amount])).toEqual([
      [product.id, "regular", 2, 9800],
    ]);
    expect(body).toEqual({
      order_id: body.order_id,
      total: 9800,
      due_today: 9800,
      discount_total: 0,
      discount: null,
      currency: "EUR",
      payment_gateway: "gateway_b",
      failed_over: false,
      failed_over_from: null,
      checkout: { url: "https://checkout.gateway_b.test/cs_gateway_b_1", session_id: "cs_gateway_b_1" },
      order_status_url: `https://shop.test/orders/${body.order_id}?`,
    });
  });

  test("asks the chosen gateway once for a session with the order's lines, customer and return addresses", async () => {
    const { createCheckout, orders, gatewayA, gatewayB, aProduct } = setup();
    const product = await aProduct();
    const body = await createCheckout({ customerId: ada.id }, aRequest(product.id));
    const item = (await orders.find(body.order_id))?.items[0];

    expect(gatewayA.calls).toEqual([]);
    expect(gatewayB.sessions).toEqual([
      {
        order_id: body.order_id,
        currency: "EUR",
        customer: ada,
        success_url: `https://shop.test/orders/${body.order_id}?paid=1`,
        cancel_url: `https://shop.test/orders/${body.order_id}?cancelled=1`,
        tax_behavior: "inclusive",
        lines: [
          {
            order_item_id: item?.id ?? "",
            product_id: product.id,
            name: product.name,
            variant: "regular",
            billing_interval: null,
            unit_amount: 4900,
            quantity: 2,
            trial_days: null,
            gateway_price_id: null,
          },
        ],
      },
    ]);
  });

  test("records deterministic metadata: the gateway, its environment and each item's delivery, sorted keys", async () => {
    const { createCheckout, orders, aProduct } = setup();
    const product = await aProduct();
    const body = await createCheckout(
      { customerId: ada.id },
      {
        items: [{ product_id: product.id, variant: "regular", options: { zeta: "z", alpha: "a" } }],
      },
    );
    expect((await orders.find(body.order_id))?.order.metadata).toBe(
      JSON.stringify({
        gateway_environment: "live",
        items: [
          {
            delivery_model: "self_hosted_license",
            fulfillment_driver: "license_download",
            options: { alpha: "a", zeta: "z" },
            product_id: product.id,
            quantity: 1,
            variant: "regular",
          },
        ],
        payment_gateway: "gateway_b",
      }),
    );
  });

  test("names a synced gateway price only when its amount, currency and tax treatment are current", async () => {
    const { createCheckout, refs, gatewayB, aProduct } = setup();
    const product = await aProduct();
    const ref = { amount: 4900, currency: "EUR", tax_behavior: "inclusive" as const };
    await refs.put(product.id, "gateway_b", "live", { slot: "regular", remote_id: "price_current", ...ref });
    await refs.put(product.id, "gateway_b", "live", { slot: "extended", remote_id: "price_stale", ...ref });
    await refs.put(product.id, "gateway_b", "sandbox", { slot: "regular", remote_id: "price_sandbox", ...ref });
    await createCheckout(
      { customerId: ada.id },
      {
        items: [
          { product_id: product.id, variant: "regular" },
          { product_id: product.id, variant: "extended" },
        ],
      },
    );
    expect(gatewayB.sessions[0]?.lines.map((line) => [line.variant, line.gateway_price_id])).toEqual([
      ["regular", "price_current"],
      ["extended", null],
    ]);
  });

  test("passes the gateway's client key on only when the session has one", async () => {
    const withKey = setup({ clientKey: "pk_test_client" });
    const body = await withKey.createCheckout({ customerId: ada.id }, aRequest((await withKey.aProduct()).id));
    expect(body.checkout.client_key).toBe("pk_test_client");
    const withoutKey = setup();
    const plain = await withoutKey.createCheckout({ customerId: ada.id }, aRequest((await withoutKey.aProduct()).id));
    expect(plain.checkout).not.toHaveProperty("client_key");
  });

  test("a trial subscription opens its checkout with nothing due today", async () => {
    const { createCheckout, gatewayB, aProduct } = setup();
    const saas = await aProduct(aPointOfSaleProduct({ price_monthly: 3100 }));
    const body = await createCheckout({ customerId: ada.id }, { items: [{ product_id: saas.id, variant: "monthly" }] });
    expect(body).toMatchObject({ total: 3100, due_today: 0 });
    expect(gatewayB.sessions[0]?.lines[0]).toMatchObject({ billing_interval: "monthly", trial_days: 14 });
  });

  test("an unknown customer is CUSTOMER_NOT_FOUND: no order, no gateway call", async () => {
    const { createCheckout, orders, gatewayB, aProduct } = setup();
    const product = await aProduct();
    expect((await failure(createCheckout({ customerId: "cus-nobody" }, aRequest(product.id)))).code).toBe(
      "CUSTOMER_NOT_FOUND",
    );
    expect(orders.all()).toEqual([]);
    expect(gatewayB.calls).toEqual([]);
  });

  test("an invalid checkout is VALIDATION_FAILED: no order, no gateway call", async () => {
    const { createCheckout, orders, gatewayB, aProduct } = setup();
    const product = await aProduct();
    const error = await failure(
      createCheckout({ customerId: ada.id }, { items: [{ product_id: product.id, variant: "monthly" }] }),
    );
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.errors?.map((e) => e.code)).toEqual(["VARIANT_NOT_OFFERED"]);
    expect(orders.all()).toEqual([]);
    expect(gatewayB.calls).toEqual([]);
  });

  test("a gateway failure surfaces with its code and leaves the order checkout_failed with the reason", async () => {
    const { createCheckout, orders, gatewayB, aProduct } = setup();
    // The only gateway the product enables: there is nowhere to fail over to.
    const product = await aProduct(onlyGatewayB);
    gatewayB.fail("createCheckoutSession", new UpstreamServerError("gateway", 503));
    const error = await failure(createCheckout({ customerId: ada.id }, aRequest(product.id)));
    expect(error.code).toBe("GATEWAY_SERVER_ERROR");
    const [order] = orders.all();
    expect(order).toMatchObject({
      status: "checkout_failed",
      flagged_reason: error.message,
      checkout_session_id: null,
      checkout_url: null,
    });
  });
});

describe("createCheckout racing the expiry", () => {
  test("an order expired while its session opened is ORDER_EXPIRED, and the session is closed at once", async () => {
    const { createCheckout, orders, gatewayB, aProduct } = setup();
    const product = await aProduct();
    const attach = orders.attachCheckout;
    // The minute tick expires the order while the gateway opens its session.
    orders.attachCheckout = async (orderId, session) => {
      await attach(orderId, session);
      return { expired: true };
    };
    const error = await failure(createCheckout({ customerId: ada.id }, aRequest(product.id)));
    expect(error.code).toBe("ORDER_EXPIRED");
    const [order] = orders.all();
    expect(gatewayB.callsOf("expireCheckout")).toEqual([[order?.checkout_session_id]]);
  });

  test("a gateway that cannot close it then still leaves ORDER_EXPIRED, never a checkout to pay", async () => {
    const { createCheckout, orders, gatewayB, aProduct } = setup();
    const product = await aProduct();
    orders.attachCheckout = async () => ({ expired: true });
    gatewayB.fail("expireCheckout", new UpstreamServerError("gateway", 503));
    expect((await failure(createCheckout({ customerId: ada.id }, aRequest(product.id)))).code).toBe("ORDER_EXPIRED");
  });
});
