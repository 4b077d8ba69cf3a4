import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { START } from "../../harness.ts";
import { aCheckoutLine, aCheckoutRequest, aSession } from "../flows.ts";
import { paidCouponSession, renew } from "../gateway-b-coupon-sessions.ts";
import { B_KEY, B_SECRET, type GatewaySim, type startMarketplace } from "../harness.ts";
import { everyStripeEvent, paidSession } from "../lifecycles.ts";

type Marketplace = ReturnType<typeof startMarketplace>;

/** Two lines, the first by `priceId` when given, else priced inline (monthly when `interval` says so). */
const checkout = (orderId: string, interval: "monthly" | null, trialDays: number | null, priceId: string | null) =>
  aCheckoutRequest(
    orderId,
    [
      aCheckoutLine({
        product_id: "prod_1",
        variant: interval ?? "regular",
        billing_interval: interval,
        unit_amount: 2900,
        quantity: 2,
        trial_days: trialDays,
        gateway_price_id: priceId,
      }),
      aCheckoutLine({ order_item_id: "item_2", product_id: "prod_2", name: "Setup", unit_amount: 500 }),
    ],
    { success_url: "https://shop.test/ok?session={CHECKOUT_SESSION_ID}" },
  );

/** Every call the marketplace's Stripe client makes, through its adapter (the sandbox served at `baseUrl`). */
async function marketplaceCalls(sim: GatewaySim, marketplace: Marketplace, baseUrl: string) {
  const settings = createStaticGatewaySettings({
    gateway_b: { base_url: baseUrl, api_key: B_KEY, webhook_secrets: [B_SECRET] },
  });
  const gateway = createStripeGateway({ settings, now: () => START.getTime() });
  const pay = (url: string) => sim.plain("POST", `${new URL(url).pathname}/pay`);
  const paidEvent = async (orderId: string) => {
    const received = await marketplace.settle();
    const event = received
      .filter((webhook) => webhook.body.type === "checkout.session.completed")
      .map((webhook) => gateway.normalizeWebhookPayload(webhook.body))
      .find((normalized) => normalized.kind === "paid" && normalized.order_id === orderId);
    if (event?.kind !== "paid") throw new Error(`no paid event for ${orderId}`);
    return event;
  };

  const connection = await gateway.testConnection();
  if (!connection.ok) throw new Error(`the connection test failed: ${JSON.stringify(connection)}`);
  const product = await gateway.createProduct({ marketplace_product_id: "mp_1", name: "POS", description: "Tills" });
  await gateway.findProductByMarketplaceId("mp_1");
  await gateway.getProduct(product.id);
  const monthly = await gateway.createPrice({
    product_id: product.id,
    marketplace_product_id: "mp_1",
    variant: "monthly",
    amount: 2900,
    currency: "USD",
    billing_interval: "monthly",
    trial_days: null,
    tax_behavior: "exclusive",
  });
  await gateway.getPrice(monthly.id);
  const repriced = await gateway.updatePrice(monthly, { amount: 3900, currency: "USD", tax_behavior: "exclusive" });

  const once = await gateway.createCheckoutSession(checkout("ord_req_once", null, null, null));
  await pay(once.url);
  const oncePaid = await paidEvent("ord_req_once");
  await gateway.refund(
    { payment_id: oncePaid.payment.payment_id ?? "", order_id: "ord_req_once", currency: "USD" },
    100,
    "rf_once",
  );
  const unpaid = await gateway.createCheckoutSession(checkout("ord_req_unpaid", null, null, null));
  await gateway.expireCheckout(unpaid.session_id);
  await gateway.expireCheckout(unpaid.session_id);

  const sub = await gateway.createCheckoutSession(checkout("ord_req_sub", "monthly", 14, null));
  await pay(sub.url);
  const subPaid = await paidEvent("ord_req_sub");
  const subscriptionId = subPaid.subscription?.subscription_id ?? "";
  await gateway.resolvePayment(subPaid.payment);
  await gateway.scheduleCancellation(subscriptionId);
  await gateway.resumeSubscription(subscriptionId);
  await gateway.getSubscription(subscriptionId);
  await gateway.billingPortalUrl(subscriptionId, "https://shop.example/account");
  await gateway.cancelSubscription(subscriptionId);

  const byPrice = await gateway.createCheckoutSession(checkout("ord_req_price", "monthly", null, repriced.id));
  await pay(byPrice.url);
  const planned = (await paidEvent("ord_req_price")).subscription?.subscription_id ?? "";
  const toYearly = {
    subscription_id: planned,
    order_id: "ord_req_price",
    product_name: "POS",
    variant: "yearly" as const,
    unit_amount: 29000,
    currency: "USD",
    tax_behavior: "exclusive" as const,
    gateway_price_id: null,
    timing: "period_end" as const,
  };
  await gateway.previewPlanChange(toYearly);
  await gateway.changePlan(toYearly);
  await gateway.releasePlanChange(planned);
  await gateway.previewPlanChange({ ...toYearly, timing: "now" });
  await gateway.changePlan({ ...toYearly, timing: "now" });
  const charge = (await sim.b("GET", `/payment_intents/${oncePaid.payment.payment_intent_id}`)).body.latest_charge;
  await gateway.resolvePayment({ payment_id: null, charge_id: charge });
}

/**
 * A coupon redeemed at a subscription checkout, then a renewal it still discounts: the session's
 * `discounts`, the subscription's discount (expanded too) and the invoices' discount amounts.
 */
async function discountedSubscription(sim: GatewaySim) {
  await sim.b("POST", "/coupons", {
    id: "LOYAL",
    amount_off: 500,
    currency: "usd",
    duration: "repeating",
    duration_in_months: 2,
  });
  const session = await paidCouponSession(
    sim,
    [
      { amount: 2900, every: "month", name: "POS" },
      { amount: 500, name: "Setup" },
    ],
    "LOYAL",
  );
  const renewed = await renew(sim, session.subscription);
  await sim.b("GET", `/subscriptions/${session.subscription}?expand[]=discounts`);
  await sim.b("GET", `/invoices/${renewed.invoice.id}?expand[]=discounts`);
}

/** Every object, list and refusal the sandbox serves, read straight from it, and every kind of webhook it sends. */
async function sandboxObjects(sim: GatewaySim, marketplace: Marketplace) {
  await aSession(sim, { orderId: "ord_open" });
  const { oneTime, monthly, trial } = await everyStripeEvent(sim);
  const b = async (method: string, path: string, form?: Record<string, string | number>) =>
    (await sim.b(method, path, form)).body;
  const intent = await b("GET", `/payment_intents/${oneTime.payment_intent}`);
  await b("GET", `/invoices/${monthly.invoice}`);
  await b("GET", `/invoices/${monthly.invoice}?expand[]=payments`);
  const invoicePayments = await b("GET", `/invoice_payments?invoice=${monthly.invoice}`);
  await b("GET", `/invoice_payments/${invoicePayments.data[0].id}`);
  const product = await b("POST", "/products", { name: "Theme", description: "A theme", "metadata[k]": "v" });
  const yearly = await b("POST", "/prices", {
    product: product.id,
    currency: "usd",
    unit_amount: 9900,
    tax_behavior: "exclusive",
    "recurring[interval]": "year",
  });
  const once = await b("POST", "/prices", { product: product.id, currency: "usd", unit_amount: 4900 });
  await marketplace.settle();
  const [dispute] = marketplace.ofType("charge.dispute.closed").map((webhook) => webhook.body.data.object);
  const failed = marketplace.ofType("invoice.payment_failed")[0]?.body.data.object;
  const failedIntent = (await b("GET", `/invoice_payments?invoice=${failed.id}`)).data[0].payment.payment_intent;
  await b("GET", `/payment_intents/${failedIntent}`);
  await b("GET", `/charges/${intent.latest_charge}`);
  await b("POST", "/refunds", { payment_intent: intent.id, amount: 100 });
  await b("GET", `/disputes/${dispute.id}`);
  for (const subscription of [monthly.subscription, trial.subscription])
    await b("GET", `/subscriptions/${subscription}`);
  const another = (await paidSession(sim, { monthly: true, orderId: "ord_another" })).subscription;
  const item = (await b("GET", `/subscriptions/${another}`)).items.data[0];
  const schedule = await b("POST", "/subscription_schedules", { from_subscription: another });
  await b("GET", `/subscription_schedules/${schedule.id}`);
  await b("POST", `/subscription_schedules/${schedule.id}/release`);
  await b("POST", "/invoices/create_preview", {
    subscription: another,
    "subscription_details[items][0][id]": item.id,
    "subscription_details[items][0][price]": yearly.id,
    "subscription_details[proration_behavior]": "create_prorations",
  });
  await b("POST", `/subscriptions/${another}`, { cancel_at_period_end: "true" });
  await b("POST", `/subscriptions/${another}`, { cancel_at_period_end: "false" });
  await b("DELETE", `/subscriptions/${another}`);
  await b("GET", `/products/${product.id}`);
  await b("GET", `/products/search?query=${encodeURIComponent("name:'Theme'")}`);
  await b("GET", `/prices/${yearly.id}`);
  await b("POST", `/prices/${once.id}`, { active: "false" });
  const percent = await b("POST", "/coupons", { percent_off: "12.5", duration: "once", "metadata[discount]": "d" });
  await b("POST", "/coupons", {
    id: "PARTNER5",
    name: "Partner",
    amount_off: 500,
    currency: "usd",
    duration: "repeating",
    duration_in_months: 2,
    max_redemptions: 10,
  });
  await b("GET", `/coupons/${percent.id}`);
  await discountedSubscription(sim);
  await b("GET", "/coupons?limit=2");
  await b("DELETE", "/coupons/PARTNER5");
  await b("GET", "/balance");
  await b("GET", "/charges/ch_missing");
  await b("POST", "/refunds", { amount: 100 });
  await sim.b("GET", "/balance", undefined, "sk_test_wrong");
  await marketplace.settle();
}

/**
 * Everything gateway_b's sandbox and the marketplace exchange: the marketplace's own calls through
 * its adapter, the sandbox's objects read straight from it, and every kind of webhook it sends.
 */
export async function everyStripeExchange(sim: GatewaySim, marketplace: Marketplace, baseUrl: string) {
  await marketplaceCalls(sim, marketplace, baseUrl);
  await sandboxObjects(sim, marketplace);
}
