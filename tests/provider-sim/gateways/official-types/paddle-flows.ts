import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { aCheckoutRequest as checkout, aCheckoutLine as line } from "../flows.ts";
import { A_KEY, A_SECRET, type GatewaySim } from "../harness.ts";
import { everyPaddleEvent } from "../lifecycles.ts";

/** The marketplace's gateway_a adapter through one catalog sync, two checkouts, refunds and a subscription's cancellations. */
async function marketplaceCalls(sim: GatewaySim, baseUrl: string) {
  const settings = createStaticGatewaySettings({
    gateway_a: { base_url: baseUrl, api_key: A_KEY, webhook_secrets: [A_SECRET] },
  });
  const gateway = createPaddleGateway({ settings });
  await gateway.testConnection();
  await gateway.findProductByMarketplaceId("mp_1");
  const product = await gateway.createProduct({
    marketplace_product_id: "mp_1",
    name: "POS Suite",
    description: "Tills",
  });
  const terms = { product_id: product.id, marketplace_product_id: "mp_1", currency: "USD" } as const;
  const monthly = await gateway.createPrice({
    ...terms,
    variant: "monthly",
    amount: 2900,
    billing_interval: "monthly",
    trial_days: 14,
    tax_behavior: "exclusive",
  });
  const once = await gateway.createPrice({
    ...terms,
    variant: "regular",
    amount: 4900,
    billing_interval: null,
    trial_days: null,
    tax_behavior: "inclusive",
  });
  await gateway.updatePrice(once, { amount: 5900, currency: "USD", tax_behavior: "exclusive" });
  await gateway.getProduct(product.id);
  await gateway.getPrice(monthly.id);
  await gateway.findProductByMarketplaceId("mp_1");

  const oneTime = await gateway.createCheckoutSession(
    checkout("ord_1", [line({ gateway_price_id: once.id, quantity: 2 }), line({ variant: "extended" })]),
  );
  const subscribed = await gateway.createCheckoutSession(
    checkout("ord_2", [line({ variant: "monthly", billing_interval: "monthly", unit_amount: 2900 })]),
  );
  for (const session of [oneTime, subscribed]) await sim.plain("POST", `/checkout/gateway_a/${session.session_id}/pay`);
  const payment = { payment_id: oneTime.session_id, order_id: "ord_1", currency: "USD" };
  await gateway.refund(payment, 1000, "rf_partial");
  await gateway.refund(payment, null, "rf_full");
  const unpaid = await gateway.createCheckoutSession(checkout("ord_3", [line({})]));
  await gateway.expireCheckout(unpaid.session_id);
  await gateway.expireCheckout(unpaid.session_id);

  const subscriptionId = (await sim.a("GET", `/transactions/${subscribed.session_id}`)).body.data.subscription_id;
  await gateway.getSubscription(subscriptionId);
  await gateway.scheduleCancellation(subscriptionId);
  await gateway.resumeSubscription(subscriptionId);
  const toYearly = {
    subscription_id: subscriptionId,
    order_id: "ord_2",
    product_name: "POS Suite",
    variant: "yearly" as const,
    unit_amount: 29000,
    currency: "USD",
    tax_behavior: "exclusive" as const,
    gateway_price_id: null,
    timing: "now" as const,
  };
  await gateway.previewPlanChange(toYearly);
  await gateway.changePlan(toYearly);
  const backToMonthly = {
    ...toYearly,
    variant: "monthly" as const,
    gateway_price_id: monthly.id,
    timing: "period_end" as const,
  };
  await gateway.previewPlanChange(backToMonthly);
  await gateway.changePlan(backToMonthly);
  await gateway.releasePlanChange(subscriptionId);
  await gateway.billingPortalUrl(subscriptionId, "https://shop.example/account");
  await gateway.cancelSubscription(subscriptionId);
  await gateway.getProduct("pro_unknown");
}

/**
 * Answers the marketplace never asks for, but which the sandbox serves: lists, customers and a
 * refusal that lists the fields it does not know (its request is wrong on purpose).
 */
async function sandboxOnly(sim: GatewaySim) {
  await sim.a("GET", "/products?per_page=1");
  await sim.a("GET", "/prices");
  await sim.a("GET", "/customers");
  const listed = await sim.a("GET", "/customers?email=ada@example.com");
  await sim.a("GET", `/customers/${listed.body.data[0]?.id}`);
  await sim.a("POST", "/customers", { body: { email: "ada@example.com" } });
  await sim.a("POST", "/customers", { body: { email: "bob@example.com", nickname: "b" } });
  const percent = await sim.a("POST", "/discounts", {
    body: { amount: "12.5", description: "Launch", type: "percentage", enabled_for_checkout: true, code: "LAUNCH" },
  });
  await sim.a("POST", "/discounts", {
    body: {
      amount: "500",
      description: "Partner",
      type: "flat",
      currency_code: "USD",
      recur: true,
      maximum_recurring_intervals: 2,
      usage_limit: 10,
      custom_data: { discount: "d" },
    },
  });
  await sim.a("GET", `/discounts/${percent.body.data.id}`);
  await sim.a("GET", "/discounts?code=LAUNCH&status=active");
  await sim.a("PATCH", `/discounts/${percent.body.data.id}`, { body: { status: "archived" } });
}

/**
 * A discount through its life: a monthly checkout with a discount for two billing periods, paid,
 * renewed while discounted and after it ended, and a transaction refused for a discount that does
 * not exist (its request is wrong on purpose).
 */
async function discountedSubscription(sim: GatewaySim) {
  const discount = await sim.a("POST", "/discounts", {
    body: {
      amount: "500",
      description: "Two months off",
      type: "flat",
      currency_code: "USD",
      recur: true,
      maximum_recurring_intervals: 2,
    },
  });
  const body = (discountId: string) => ({
    items: [
      {
        price: {
          description: "Monthly",
          product: { name: "POS Suite", tax_category: "standard" },
          unit_price: { amount: "2900", currency_code: "USD" },
          billing_cycle: { interval: "month", frequency: 1 },
        },
        quantity: 1,
      },
    ],
    discount_id: discountId,
    custom_data: { order_id: "ord_discounted" },
  });
  const transaction = await sim.a("POST", "/transactions", { body: body(discount.body.data.id) });
  await sim.plain("POST", `/checkout/gateway_a/${transaction.body.data.id}/pay`);
  const paid = await sim.a("GET", `/transactions/${transaction.body.data.id}`);
  const subscription = paid.body.data.subscription_id as string;
  await sim.a("GET", `/subscriptions/${subscription}`);
  await sim.plain("POST", `/__sim/gateway_a/subscriptions/${subscription}/renew`, { body: {} });
  await sim.plain("POST", `/__sim/gateway_a/subscriptions/${subscription}/renew`, { body: {} });
  await sim.a("POST", "/transactions", { body: body("dsc_01aaaaaaaaaaaaaaaaaaaaaaaa") });
}

/**
 * Everything gateway_a's sandbox and the marketplace exchange: the marketplace's own calls through
 * its adapter (served at `baseUrl`), answers to calls the marketplace does not make, and every kind
 * of webhook the sandbox sends.
 */
export async function everyPaddleExchange(sim: GatewaySim, baseUrl: string) {
  await marketplaceCalls(sim, baseUrl);
  await sandboxOnly(sim);
  await discountedSubscription(sim);
  await everyPaddleEvent(sim);
}
