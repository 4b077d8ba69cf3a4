import { afterEach, describe, expect, test } from "bun:test";
import { aSession, aTransaction } from "./flows.ts";
import { createGatewaySim, NOW_UNIX, paddleSignatureValid, startMarketplace, stripeSignatureValid } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace(statuses: number[] = []) {
  marketplace = startMarketplace(statuses);
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

describe("hosted checkout pages", () => {
  test("list the lines, the total and a Pay button; every interpolated value is escaped", async () => {
    const sim = createGatewaySim();
    const evil = "<script>alert(1)</script>";
    const transaction = await aTransaction(sim, { name: evil, orderId: 'ord_"x' });
    const session = await aSession(sim, { name: evil, monthly: true, trialDays: 7 });
    for (const path of [`/checkout/gateway_a/${transaction.id}`, `/checkout/gateway_b/${session.id}`]) {
      const page = await sim.plain("GET", path);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toStartWith("text/html");
      expect(page.body).not.toContain("<script>");
      expect(page.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(page.body).toContain(`<form method="post" action="${path}"><button type="submit">Pay</button>`);
    }
    const a = (await sim.plain("GET", `/checkout/gateway_a/${transaction.id}`)).body;
    expect(a).toContain("29.00 USD");
    expect(a).toContain("ord_&quot;x");
    const b = (await sim.plain("GET", `/checkout/gateway_b/${session.id}`)).body;
    expect(b).toContain('<th id="total">0.00 USD</th>');
    expect(b).toContain("then 29.00 USD every month after a 7-day trial");
    expect((await sim.plain("GET", "/checkout/gateway_a/txn_unknown")).status).toBe(404);
  });
});

describe("paying on gateway_a", () => {
  test("/pay completes the transaction, starts the subscription and delivers a signed transaction.completed", async () => {
    const sim = simWithMarketplace();
    const transaction = await aTransaction(sim, { monthly: true, orderId: "ord_42" });
    const paid = await sim.plain("POST", `/checkout/gateway_a/${transaction.id}/pay`);
    expect(paid).toMatchObject({
      status: 200,
      body: { delivered: true, status: 200, event_id: expect.stringMatching(/^evt_/) },
    });

    const [webhook] = await marketplace.waitFor(1);
    expect(webhook?.path).toBe("/api/webhooks/gateway_a");
    expect(paddleSignatureValid(webhook?.headers.get("paddle-signature") ?? null, webhook?.raw ?? "")).toBe(true);
    expect(webhook?.headers.get("paddle-signature")).toStartWith(`ts=${NOW_UNIX};h1=`);
    const event = webhook?.body;
    const subscriptionId = event.data.subscription_id;
    expect(event).toMatchObject({
      event_id: paid.body.event_id,
      event_type: "transaction.completed",
      notification_id: expect.stringMatching(/^ntf_/),
      data: {
        id: transaction.id,
        status: "completed",
        origin: "web",
        custom_data: { order_id: "ord_42" },
        currency_code: "USD",
        details: { totals: { grand_total: "2900" } },
        subscription_id: expect.stringMatching(/^sub_/),
        billing_period: { starts_at: "2026-01-31T10:00:00.000Z", ends_at: "2026-02-28T10:00:00.000Z" },
      },
    });
    const subscription = await sim.a("GET", `/subscriptions/${subscriptionId}`);
    expect(subscription.body.data).toMatchObject({
      status: "active",
      custom_data: { order_id: "ord_42" },
      current_billing_period: { ends_at: "2026-02-28T10:00:00.000Z" },
      canceled_at: null,
    });
    expect((await sim.a("GET", `/transactions/${transaction.id}`)).body.data.status).toBe("completed");
  });

  test("a trial starts a trialing subscription and charges 0 now; the page's Pay button shows a receipt", async () => {
    const sim = simWithMarketplace();
    const transaction = await aTransaction(sim, { monthly: true, trialDays: 14 });
    const page = await sim.plain("POST", `/checkout/gateway_a/${transaction.id}`, {
      rawBody: "",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain("Payment received");
    const [webhook] = await marketplace.waitFor(1);
    expect(webhook?.body.data.details.totals.grand_total).toBe("0");
    const subscription = (await sim.a("GET", `/subscriptions/${webhook?.body.data.subscription_id}`)).body.data;
    expect(subscription).toMatchObject({
      status: "trialing",
      current_billing_period: { ends_at: "2026-02-14T10:00:00.000Z" },
      items: [{ status: "trialing", trial_dates: { ends_at: "2026-02-14T10:00:00.000Z" } }],
    });
    const again = await sim.plain("POST", `/checkout/gateway_a/${transaction.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toContain("already paid");
  });

  test("paying twice is 409 with no second webhook; /resend delivers the same event again", async () => {
    const sim = simWithMarketplace();
    const transaction = await aTransaction(sim);
    expect((await sim.plain("POST", `/checkout/gateway_a/${transaction.id}/resend`)).status).toBe(409);
    const [first, second] = await Promise.all([
      sim.plain("POST", `/checkout/gateway_a/${transaction.id}/pay`),
      sim.plain("POST", `/checkout/gateway_a/${transaction.id}/pay`),
    ]);
    expect([first?.status, second?.status].sort()).toEqual([200, 409]);
    const eventId = (first?.status === 200 ? first : second)?.body.event_id;
    await Bun.sleep(50);
    expect(marketplace.received).toHaveLength(1);

    const resent = await sim.plain("POST", `/checkout/gateway_a/${transaction.id}/resend`);
    expect(resent.body).toEqual({ delivered: true, status: 200, event_id: eventId });
    const received = await marketplace.waitFor(2);
    expect(received[1]?.body.event_id).toBe(eventId);
    expect(received[1]?.raw).toBe(received[0]?.raw as string);
  });

  test("/pay reports the marketplace's refusal or absence", async () => {
    const sim = simWithMarketplace([500]);
    const refused = await sim.plain("POST", `/checkout/gateway_a/${(await aTransaction(sim)).id}/pay`);
    expect(refused.body).toMatchObject({ delivered: false, status: 500 });
    const offline = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: "http://127.0.0.1:9" });
    const unreachable = await offline.plain("POST", `/checkout/gateway_a/${(await aTransaction(offline)).id}/pay`);
    expect(unreachable.body).toMatchObject({ delivered: false, status: null });
    expect((await sim.plain("POST", "/checkout/gateway_a/txn_unknown/pay")).status).toBe(404);
  });
});

describe("paying on gateway_b", () => {
  test("the Pay button delivers a signed checkout.session.completed and redirects to the success URL", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim, {
      orderId: "ord_7",
      successUrl: "https://shop.test/ok?cs={CHECKOUT_SESSION_ID}",
    });
    const page = await sim.plain("POST", `/checkout/gateway_b/${session.id}`);
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe(`https://shop.test/ok?cs=${session.id}`);

    const [webhook] = await marketplace.waitFor(1);
    expect(webhook?.path).toBe("/api/webhooks/gateway_b");
    expect(webhook?.headers.get("stripe-signature")).toStartWith(`t=${NOW_UNIX},v1=`);
    expect(stripeSignatureValid(webhook?.headers.get("stripe-signature") ?? null, webhook?.raw ?? "")).toBe(true);
    expect(
      stripeSignatureValid(webhook?.headers.get("stripe-signature") ?? null, webhook?.raw ?? "", "whsec_other"),
    ).toBe(false);
    expect(webhook?.body).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type: "checkout.session.completed",
      livemode: false,
      data: {
        object: {
          id: session.id,
          status: "complete",
          payment_status: "paid",
          client_reference_id: "ord_7",
          metadata: { order_id: "ord_7" },
          amount_total: 2900,
          currency: "usd",
          payment_intent: expect.stringMatching(/^pi_/),
          subscription: null,
        },
      },
    });
    expect((await sim.b("GET", "/balance")).body.available).toEqual([
      { amount: 2900, currency: "usd", source_types: { card: 2900 } },
    ]);
  });

  test("a subscription checkout starts an active subscription", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim, { monthly: true, orderId: "ord_8" });
    const paid = await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`);
    expect(paid.body.delivered).toBe(true);
    const completed = (await marketplace.waitFor(1))[0]?.body.data.object;
    const subscriptionId = completed.subscription;
    expect({ ...completed }).toMatchObject({
      payment_status: "paid",
      amount_total: 2900,
      payment_intent: null,
      invoice: expect.stringMatching(/^in_/),
      subscription: expect.stringMatching(/^sub_/),
    });
    const subscription = await sim.b("GET", `/subscriptions/${subscriptionId}`);
    expect(subscription.body).toMatchObject({
      object: "subscription",
      status: "active",
      items: { data: [{ current_period_end: Date.UTC(2026, 1, 28, 10) / 1000 }] },
      trial_end: null,
      metadata: { order_id: "ord_8" },
      canceled_at: null,
    });
  });

  test("a checkout that is all trial is no_payment_required with amount_total 0 and a trialing subscription", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim, { monthly: true, trialDays: 14 });
    await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`);
    const event = (await marketplace.waitFor(1))[0]?.body;
    expect(event.data.object).toMatchObject({
      payment_status: "no_payment_required",
      amount_total: 0,
      payment_intent: null,
    });
    const subscription = (await sim.b("GET", `/subscriptions/${event.data.object.subscription}`)).body;
    expect(subscription).toMatchObject({
      status: "trialing",
      trial_end: NOW_UNIX + 14 * 86_400,
      items: { data: [{ current_period_end: NOW_UNIX + 14 * 86_400 }] },
    });
  });

  test("paying twice is 409 with no second webhook; /resend repeats the event id", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim);
    const paid = await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`);
    const again = await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CHECKOUT_ALREADY_PAID");
    expect(marketplace.received).toHaveLength(1);
    const resent = await sim.plain("POST", `/checkout/gateway_b/${session.id}/resend`);
    expect(resent.body.event_id).toBe(paid.body.event_id);
    expect((await marketplace.waitFor(2))[1]?.body.id).toBe(paid.body.event_id);
  });
});
