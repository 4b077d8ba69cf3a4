import { afterEach, describe, expect, test } from "bun:test";
import { Environment, EventName, Paddle } from "@paddle/paddle-node-sdk";
import Stripe from "stripe";
import { STRIPE_API_VERSION } from "../../../provider-sim/gateways/gateway-b/events.ts";
import { A_SECRET, B_SECRET, createGatewaySim, startMarketplace } from "./harness.ts";
import { everyPaddleEvent, everyStripeEvent } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

/** Both SDKs judge signatures against the real time, so this simulator signs with it. */
function simAtRealTime() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url }, Date.now);
}

describe("the official stripe package accepts every event gateway_b sends", () => {
  test("the sandbox follows the API version the installed package pins", () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  test("constructEventAsync verifies and parses each one", async () => {
    const sim = simAtRealTime();
    await everyStripeEvent(sim);
    const received = await marketplace.settle();
    const stripe = new Stripe("sk_test_unit");
    const types = new Set<string>();
    for (const webhook of received) {
      const event = await stripe.webhooks.constructEventAsync(
        webhook.raw,
        webhook.headers.get("stripe-signature") ?? "",
        B_SECRET,
      );
      expect(event).toMatchObject({ object: "event", api_version: STRIPE_API_VERSION, livemode: false });
      types.add(event.type);
    }
    expect([...types].sort()).toEqual([
      "charge.dispute.closed",
      "charge.dispute.created",
      "charge.refunded",
      "checkout.session.completed",
      "customer.subscription.created",
      "customer.subscription.deleted",
      "customer.subscription.trial_will_end",
      "customer.subscription.updated",
      "invoice.paid",
      "invoice.payment_failed",
      "invoice_payment.paid",
      "refund.created",
    ]);
    await expect(
      stripe.webhooks.constructEventAsync(
        received[0]?.raw ?? "",
        received[0]?.headers.get("stripe-signature") ?? "",
        "whsec_other",
      ),
    ).rejects.toThrow();
  });
});

describe("the official Paddle SDK unmarshals every event gateway_a sends", () => {
  test("webhooks.unmarshal verifies each one and parses it into its typed entity", async () => {
    const sim = simAtRealTime();
    const { trial } = await everyPaddleEvent(sim);
    const received = await marketplace.settle();
    const paddle = new Paddle("pdl_sdbx_apikey_unit", { environment: Environment.sandbox });
    const types = new Set<string>();
    for (const webhook of received) {
      const event = await paddle.webhooks.unmarshal(
        webhook.raw,
        A_SECRET,
        webhook.headers.get("paddle-signature") ?? "",
      );
      expect(event.eventId).toBe(webhook.body.event_id);
      types.add(event.eventType);
      if (event.eventType === EventName.TransactionCompleted && event.data.origin === "subscription_recurring") {
        expect(event.data.subscriptionId).toBe(trial.subscription_id);
        expect(event.data.details?.totals?.grandTotal).toBe("2900");
        expect(event.data.billingPeriod?.endsAt).toEqual(expect.any(String));
      }
      if (event.eventType === EventName.AdjustmentCreated) {
        expect(["refund", "chargeback", "chargeback_reverse"]).toContain(event.data.action);
        expect(event.data.totals?.currencyCode).toBe("USD");
      }
      if (event.eventType === EventName.SubscriptionPastDue) expect(event.data.status).toBe("past_due");
    }
    expect([...types].sort()).toEqual([
      "adjustment.created",
      "subscription.activated",
      "subscription.canceled",
      "subscription.past_due",
      "subscription.updated",
      "transaction.completed",
      "transaction.paid",
      "transaction.past_due",
      "transaction.payment_failed",
    ]);
  });
});
