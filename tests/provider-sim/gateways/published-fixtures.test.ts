import { afterEach, describe, expect, test } from "bun:test";
import { createGatewaySim, startMarketplace } from "./harness.ts";
import { keyPathMismatches } from "./key-paths.ts";
import { everyPaddleEvent, everyStripeEvent } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

const fixture = (name: string) => Bun.file(new URL(`../../fixtures/gateways/${name}.json`, import.meta.url)).json();

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

async function expectShaped(name: string, objects: readonly unknown[], nullable: readonly string[] = []) {
  expect(objects.length).toBeGreaterThan(0);
  const published = await fixture(name);
  for (const object of objects)
    expect({ [name]: keyPathMismatches(published, object, nullable) }).toEqual({ [name]: [] });
}

describe("gateway_b objects carry every field of Stripe's published fixtures", () => {
  test("sessions, invoices and their payments, charges, refunds, disputes, subscriptions, prices, events", async () => {
    const sim = simWithMarketplace();
    const { oneTime, monthly } = await everyStripeEvent(sim);
    await marketplace.settle();
    const objects = (type: string) => marketplace.ofType(type).map((webhook) => webhook.body.data.object);

    await expectShaped("stripe/checkout.session", [oneTime]);
    // Checkout.Session.payment_intent is `string | PaymentIntent | null`: a subscription is paid by its invoice.
    await expectShaped("stripe/checkout.session", [monthly], ["payment_intent"]);
    const invoices = [...objects("invoice.paid"), ...objects("invoice.payment_failed")];
    await expectShaped("stripe/invoice", invoices);
    await expectShaped("stripe/invoice", [(await sim.b("GET", `/invoices/${monthly.invoice}`)).body]);
    await expectShaped("stripe/invoice_payment", objects("invoice_payment.paid"));
    await expectShaped("stripe/charge", objects("charge.refunded"));
    await expectShaped("stripe/refund", objects("refund.created"));
    await expectShaped("stripe/dispute", [...objects("charge.dispute.created"), ...objects("charge.dispute.closed")]);
    // Subscription.trial_start, trial_end and cancel_at are `number | null`.
    await expectShaped("stripe/subscription", objects("customer.subscription.deleted"), [
      "trial_start",
      "trial_end",
      "cancel_at",
    ]);
    await expectShaped("stripe/subscription", objects("customer.subscription.updated"), [
      "trial_start",
      "trial_end",
      "cancel_at",
      "canceled_at",
      "ended_at",
    ]);
    const product = (await sim.b("POST", "/products", { name: "Theme" })).body;
    const price = (
      await sim.b("POST", "/prices", {
        product: product.id,
        currency: "usd",
        unit_amount: 4900,
        tax_behavior: "inclusive",
      })
    ).body;
    const embedded = objects("customer.subscription.created").map((subscription) => subscription.items.data[0].price);
    // Price.recurring is null for a one-time price.
    await expectShaped("stripe/price", [price, ...embedded], ["recurring"]);
    await expectShaped(
      "stripe/event",
      marketplace.received.map((webhook) => webhook.body),
    );
  });
});

describe("gateway_a events carry every field of Paddle's published payloads", () => {
  test("transactions, subscriptions and adjustments, with their envelopes", async () => {
    const sim = simWithMarketplace();
    await everyPaddleEvent(sim);
    await marketplace.settle();
    const bodies = (type: string) => marketplace.ofType(type).map((webhook) => webhook.body);

    const charged = bodies("transaction.completed").filter((event) => event.data.details.totals.grand_total !== "0");
    // Nullable in Paddle's schema: a one-time price's billing_cycle, a renewal's checkout.url (no
    // checkout collects it), and the captured_at of a failed attempt listed before the one that succeeded.
    const nullable = ["data.items[].price.billing_cycle", "data.checkout.url", "data.payments[].captured_at"];
    await expectShaped("paddle/transaction.completed", charged, nullable);
    await expectShaped("paddle/transaction.payment_failed", bodies("transaction.payment_failed"), [
      "data.checkout.url",
    ]);
    await expectShaped("paddle/subscription.updated", bodies("subscription.updated"));
    await expectShaped("paddle/subscription.past_due", bodies("subscription.past_due"));
    // Adjustment.subscription_id is `string | null`: a one-time transaction has none.
    await expectShaped("paddle/adjustment.created", bodies("adjustment.created"), ["data.subscription_id"]);
  });
});
