import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { aSession } from "../flows.ts";
import { createGatewaySim, startMarketplace } from "../harness.ts";
import { everyStripeEvent, paidSession } from "../lifecycles.ts";
import { eventType, type TypedSample, typeCheck } from "./stripe-type-check.ts";

/**
 * Every object, list, error and event the gateway_b sandbox answers or sends, written as object
 * literals of the official `stripe` package's types and compiled with `tsc --strict`: a field
 * Stripe does not have, or a required one left out, fails.
 */
const TSC_TIMEOUT_MS = 120_000;

let marketplace: ReturnType<typeof startMarketplace>;
let sim: ReturnType<typeof createGatewaySim>;

beforeAll(() => {
  marketplace = startMarketplace();
  sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
});

afterAll(() => marketplace.stop());

const sample = (label: string, type: string, value: unknown): TypedSample => ({ label, type, value });

async function sandboxObjects(): Promise<TypedSample[]> {
  const open = await aSession(sim, { orderId: "ord_open" });
  const { oneTime, monthly, trial } = await everyStripeEvent(sim);
  const b = async (method: string, path: string, form?: Record<string, string | number>) =>
    (await sim.b(method, path, form)).body;
  const intent = await b("GET", `/payment_intents/${oneTime.payment_intent}`);
  const invoice = await b("GET", `/invoices/${monthly.invoice}`);
  const expanded = await b("GET", `/invoices/${monthly.invoice}?expand[]=payments`);
  const invoicePayments = await b("GET", `/invoice_payments?invoice=${monthly.invoice}`);
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
  const subscription = (id: string) => b("GET", `/subscriptions/${id}`);
  const another = (await paidSession(sim, { monthly: true, orderId: "ord_another" })).subscription;
  const scheduled = await b("POST", `/subscriptions/${another}`, { cancel_at_period_end: "true" });
  const resumed = await b("POST", `/subscriptions/${another}`, { cancel_at_period_end: "false" });
  const deleted = await b("DELETE", `/subscriptions/${another}`);
  await marketplace.settle();

  return [
    sample("POST /checkout/sessions", "Stripe.Checkout.Session", open),
    sample("GET /checkout/sessions (payment, paid)", "Stripe.Checkout.Session", oneTime),
    sample("GET /checkout/sessions (subscription, paid)", "Stripe.Checkout.Session", monthly),
    sample("GET /checkout/sessions (trial)", "Stripe.Checkout.Session", trial),
    sample("GET /payment_intents (succeeded)", "Stripe.PaymentIntent", intent),
    sample("GET /payment_intents (failed)", "Stripe.PaymentIntent", await b("GET", `/payment_intents/${failedIntent}`)),
    sample("GET /charges", "Stripe.Charge", await b("GET", `/charges/${intent.latest_charge}`)),
    sample("POST /refunds", "Stripe.Refund", await b("POST", "/refunds", { payment_intent: intent.id, amount: 100 })),
    sample("GET /disputes", "Stripe.Dispute", await b("GET", `/disputes/${dispute.id}`)),
    sample("GET /invoices", "Stripe.Invoice", invoice),
    sample("GET /invoices?expand[]=payments", "Stripe.Invoice", expanded),
    sample("GET /invoice_payments", "Stripe.ApiList<Stripe.InvoicePayment>", invoicePayments),
    sample(
      "GET /invoice_payments/:id",
      "Stripe.InvoicePayment",
      await b("GET", `/invoice_payments/${invoicePayments.data[0].id}`),
    ),
    sample("GET /subscriptions (ended)", "Stripe.Subscription", await subscription(monthly.subscription)),
    sample("GET /subscriptions (trial, deleted)", "Stripe.Subscription", await subscription(trial.subscription)),
    sample("POST /subscriptions (cancel at period end)", "Stripe.Subscription", scheduled),
    sample("POST /subscriptions (resume)", "Stripe.Subscription", resumed),
    sample("DELETE /subscriptions", "Stripe.Subscription", deleted),
    sample("POST /products", "Stripe.Product", product),
    sample("GET /products", "Stripe.Product", await b("GET", `/products/${product.id}`)),
    sample(
      "GET /products/search",
      "Stripe.ApiSearchResult<Stripe.Product>",
      await b("GET", `/products/search?query=${encodeURIComponent("name:'Theme'")}`),
    ),
    sample("POST /prices (recurring)", "Stripe.Price", yearly),
    sample("POST /prices (one-time)", "Stripe.Price", once),
    sample("GET /prices", "Stripe.Price", await b("GET", `/prices/${yearly.id}`)),
    sample("POST /prices/:id", "Stripe.Price", await b("POST", `/prices/${once.id}`, { active: "false" })),
    sample("GET /balance", "Stripe.Balance", await b("GET", "/balance")),
    sample("404", "{ error: Stripe.StripeRawError }", await b("GET", "/charges/ch_missing")),
    sample("400", "{ error: Stripe.StripeRawError }", await b("POST", "/refunds", { amount: 100 })),
    sample(
      "401",
      "{ error: Stripe.StripeRawError }",
      (await sim.b("GET", "/balance", undefined, "sk_test_wrong")).body,
    ),
    ...marketplace.received.map((webhook, i) =>
      sample(`event ${i} ${webhook.body.type}`, eventType(webhook.body.type), webhook.body),
    ),
  ];
}

describe("the gateway_b sandbox answers in the official stripe package's types", () => {
  test(
    "every object, list and event type-checks as a literal under tsc --strict",
    async () => {
      const samples = await sandboxObjects();
      const events = samples.filter((entry) => entry.label.startsWith("event"));
      expect(new Set(events.map((entry) => (entry.value as { type: string }).type))).toEqual(
        new Set([
          "charge.dispute.closed",
          "charge.dispute.created",
          "charge.refunded",
          "checkout.session.completed",
          "customer.subscription.created",
          "customer.subscription.deleted",
          "customer.subscription.updated",
          "invoice.paid",
          "invoice.payment_failed",
          "invoice_payment.paid",
          "refund.created",
        ]),
      );
      expect(await typeCheck(samples)).toEqual({});
    },
    TSC_TIMEOUT_MS,
  );
});
