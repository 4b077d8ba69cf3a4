import { describe, expect, test } from "bun:test";
import { normalizeStripeEvent } from "../../../../adapters/gateways/gateway-b/stripe-events.ts";
import { InvalidWebhookPayload } from "../../../../domain/payments/errors.ts";

const anEvent = (type: string, object: Record<string, unknown>) => ({
  id: "evt_1",
  object: "event",
  type,
  created: 1772366400,
  livemode: false,
  data: { object },
});

const aSession = (overrides: Record<string, unknown> = {}) => ({
  id: "cs_test_1",
  object: "checkout.session",
  mode: "payment",
  payment_status: "paid",
  amount_total: 4900,
  currency: "usd",
  client_reference_id: "ord_1",
  metadata: { order_id: "ord_1" },
  payment_intent: "pi_1",
  invoice: null,
  subscription: null,
  ...overrides,
});

const anInvoice = (overrides: Record<string, unknown> = {}) => ({
  id: "in_1",
  object: "invoice",
  billing_reason: "subscription_cycle",
  subscription: "sub_1",
  subscription_details: { metadata: { order_id: "ord_1" } },
  payment_intent: "pi_2",
  amount_paid: 2900,
  currency: "eur",
  lines: { data: [{ period: { start: 1772366400, end: 1775044800 } }] },
  ...overrides,
});

const base = { gateway: "gateway_b", event_id: "evt_1", livemode: false } as const;

describe("checkout.session.completed", () => {
  test("a paid one-time session is paid, with the currency upper-cased", () => {
    expect(normalizeStripeEvent(anEvent("checkout.session.completed", aSession()))).toEqual({
      ...base,
      kind: "paid",
      order_id: "ord_1",
      payment: { payment_id: "pi_1", payment_intent_id: "pi_1", invoice_id: null },
      amount: 4900,
      tax: 0,
      pre_tax: 4900,
      discount: 0,
      currency: "USD",
      subscription: null,
    });
  });

  test("tax and discounts: the total holds the tax, the amount before tax is the subtotal less the discount", () => {
    const session = aSession({
      amount_subtotal: 5000,
      amount_total: 5280,
      total_details: { amount_discount: 200, amount_shipping: 0, amount_tax: 480 },
    });
    expect(normalizeStripeEvent(anEvent("checkout.session.completed", session))).toMatchObject({
      amount: 5280,
      tax: 480,
      pre_tax: 4800,
      discount: 200,
    });
  });

  test("a paid subscription session (no payment intent, as at Stripe) names its invoice for the payment to be looked up", () => {
    const session = aSession({
      client_reference_id: null,
      payment_intent: null,
      invoice: "in_0",
      subscription: "sub_1",
    });
    expect(normalizeStripeEvent(anEvent("checkout.session.completed", session))).toMatchObject({
      kind: "paid",
      order_id: "ord_1",
      payment: { payment_id: null, payment_intent_id: null, invoice_id: "in_0" },
      subscription: { subscription_id: "sub_1", trial_ends_at: null, current_period_end: null },
    });
  });

  test("an expanded subscription contributes its trial end and period end", () => {
    const subscription = { id: "sub_1", trial_end: 1773576000, current_period_end: 1773576000 };
    const event = normalizeStripeEvent(anEvent("checkout.session.completed", aSession({ subscription })));
    expect(event).toMatchObject({
      subscription: {
        subscription_id: "sub_1",
        trial_ends_at: "2026-03-15T12:00:00.000Z",
        current_period_end: "2026-03-15T12:00:00.000Z",
      },
    });
  });

  test("a trial with no_payment_required is paid with amount 0, its payment id the session", () => {
    const session = aSession({ payment_status: "no_payment_required", amount_total: 0, payment_intent: null });
    expect(normalizeStripeEvent(anEvent("checkout.session.completed", session))).toMatchObject({
      kind: "paid",
      payment: { payment_id: "cs_test_1" },
      amount: 0,
    });
  });

  test("a session whose asynchronous payment is still pending is ignored", () => {
    const event = normalizeStripeEvent(anEvent("checkout.session.completed", aSession({ payment_status: "unpaid" })));
    expect(event).toEqual({ ...base, kind: "ignored", type: "checkout.session.completed" });
  });

  test.each(["checkout.session.completed", "checkout.session.async_payment_succeeded"])(
    "%s of a paid session naming no order is not ours: ignored, with why",
    (type) => {
      const session = aSession({ client_reference_id: null, metadata: { cart: "theirs" } });
      expect(normalizeStripeEvent(anEvent(type, session))).toEqual({
        ...base,
        kind: "ignored",
        type,
        not_ours: "the checkout session names no order",
      });
    },
  );
});

describe("invoice.paid", () => {
  test("a subscription_cycle invoice is renewed, the period end from its first line", () => {
    expect(normalizeStripeEvent(anEvent("invoice.paid", anInvoice()))).toEqual({
      ...base,
      kind: "renewed",
      subscription_id: "sub_1",
      order_id: "ord_1",
      payment: { payment_id: "pi_2", payment_intent_id: "pi_2", charge_id: null, invoice_id: "in_1" },
      amount: 2900,
      tax: 0,
      pre_tax: 2900,
      discount: 0,
      currency: "EUR",
      current_period_end: "2026-04-01T12:00:00.000Z",
    });
  });

  test("the newer invoice shape under parent.subscription_details works too", () => {
    const invoice = anInvoice({
      subscription: undefined,
      subscription_details: undefined,
      payment_intent: undefined,
      parent: { subscription_details: { subscription: "sub_9", metadata: { order_id: "ord_9" } } },
    });
    expect(normalizeStripeEvent(anEvent("invoice.paid", invoice))).toMatchObject({
      kind: "renewed",
      subscription_id: "sub_9",
      order_id: "ord_9",
      payment: { payment_id: null, invoice_id: "in_1" },
    });
  });

  test("a plan change billed at once (subscription_update with prorations) is prorated; one a credit covered is ignored", () => {
    const proration = { parent: { subscription_item_details: { proration: true } }, period: { start: 1, end: 2 } };
    const whole = { parent: { subscription_item_details: { proration: false } }, period: { start: 1, end: 2 } };
    const changed = anInvoice({
      billing_reason: "subscription_update",
      amount_paid: 27900,
      lines: { data: [proration, whole] },
    });
    expect(normalizeStripeEvent(anEvent("invoice.paid", changed))).toEqual({
      ...base,
      kind: "prorated",
      subscription_id: "sub_1",
      order_id: "ord_1",
      payment: { payment_id: "pi_2", payment_intent_id: "pi_2", charge_id: null, invoice_id: "in_1" },
      amount: 27900,
      tax: 0,
      pre_tax: 27900,
      discount: 0,
      currency: "EUR",
    });
    const covered = anInvoice({ billing_reason: "subscription_update", amount_paid: 0, lines: { data: [proration] } });
    expect(normalizeStripeEvent(anEvent("invoice.paid", covered))).toEqual({
      ...base,
      kind: "ignored",
      type: "invoice.paid",
    });
  });

  test("an update invoice without prorations (a schedule's phase starting) is the new period's renewal", () => {
    const started = anInvoice({
      billing_reason: "subscription_update",
      lines: {
        data: [
          {
            parent: { subscription_item_details: { proration: false } },
            period: { start: 1775044800, end: 1777636800 },
          },
        ],
      },
    });
    expect(normalizeStripeEvent(anEvent("invoice.paid", started))).toMatchObject({
      kind: "renewed",
      current_period_end: "2026-05-01T12:00:00.000Z",
    });
  });

  test("the first invoice (subscription_create) is ignored: the checkout session covers it", () => {
    const event = normalizeStripeEvent(anEvent("invoice.paid", anInvoice({ billing_reason: "subscription_create" })));
    expect(event).toEqual({ ...base, kind: "ignored", type: "invoice.paid" });
  });

  test("a renewal naming no subscription is invalid", () => {
    const invoice = anInvoice({ subscription: null, subscription_details: null });
    expect(() => normalizeStripeEvent(anEvent("invoice.paid", invoice))).toThrow(InvalidWebhookPayload);
  });
});

test.each([
  ["customer.subscription.deleted", "cancelled"],
  ["customer.subscription.updated", "subscription_updated"],
] as const)("%s is %s", (type, kind) => {
  const subscription = {
    id: "sub_1",
    object: "subscription",
    cancel_at_period_end: true,
    metadata: { order_id: "ord_1" },
  };
  expect(normalizeStripeEvent(anEvent(type, subscription))).toEqual({
    ...base,
    kind,
    subscription_id: "sub_1",
    order_id: "ord_1",
  });
});

test("customer.subscription.trial_will_end is trial_ending, with the trial's end; an odd trial_end is invalid", () => {
  const subscription = { id: "sub_1", object: "subscription", trial_end: 1773576000, metadata: { order_id: "ord_1" } };
  expect(normalizeStripeEvent(anEvent("customer.subscription.trial_will_end", subscription))).toEqual({
    ...base,
    kind: "trial_ending",
    subscription_id: "sub_1",
    order_id: "ord_1",
    trial_ends_at: "2026-03-15T12:00:00.000Z",
  });
  expect(() =>
    normalizeStripeEvent(anEvent("customer.subscription.trial_will_end", { ...subscription, trial_end: "soon" })),
  ).toThrow(InvalidWebhookPayload);
});

describe("payment failures", () => {
  test("invoice.payment_failed names the subscription and its order", () => {
    expect(normalizeStripeEvent(anEvent("invoice.payment_failed", anInvoice()))).toEqual({
      ...base,
      kind: "payment_failed",
      order_id: "ord_1",
      subscription_id: "sub_1",
      reason: "invoice payment failed",
    });
  });

  test("payment_intent.payment_failed carries the decline message", () => {
    const intent = {
      id: "pi_1",
      metadata: { order_id: "ord_1" },
      last_payment_error: { message: "Your card was declined." },
    };
    expect(normalizeStripeEvent(anEvent("payment_intent.payment_failed", intent))).toEqual({
      ...base,
      kind: "payment_failed",
      order_id: "ord_1",
      subscription_id: null,
      reason: "Your card was declined.",
    });
  });
});

test.each(["customer.created", "payment_intent.succeeded", "checkout.session.expired"])("%s is ignored", (type) => {
  expect(normalizeStripeEvent(anEvent(type, { id: "x" }))).toEqual({ ...base, kind: "ignored", type });
});

describe("invalid bodies", () => {
  test.each([
    ["not an object", "evt"],
    ["null", null],
    ["no id", { type: "invoice.paid", data: { object: {} } }],
    ["no type", { id: "evt_1", data: { object: {} } }],
    ["no data.object", { id: "evt_1", type: "invoice.paid", data: {} }],
    ["amount as a string", anEvent("checkout.session.completed", aSession({ amount_total: "4900" }))],
    ["negative refund", anEvent("charge.refunded", { payment_intent: "pi_1", amount_refunded: -1, currency: "usd" })],
    ["refund without a charge id", anEvent("charge.refunded", { amount_refunded: 1, currency: "usd" })],
    ["paid session without currency", anEvent("checkout.session.completed", aSession({ currency: undefined }))],
  ])("%s is InvalidWebhookPayload", (_, payload) => {
    expect(() => normalizeStripeEvent(payload)).toThrow(InvalidWebhookPayload);
  });
});

test("a delayed payment that succeeds is paid; one that fails is a payment failure", () => {
  const session = {
    id: "cs_async",
    object: "checkout.session",
    client_reference_id: "order-async",
    payment_status: "paid",
    amount_total: 1500,
    currency: "usd",
    payment_intent: "pi_async",
    metadata: {},
  };
  expect(normalizeStripeEvent(anEvent("checkout.session.async_payment_succeeded", session))).toMatchObject({
    kind: "paid",
    order_id: "order-async",
    payment: { payment_id: "pi_async" },
    amount: 1500,
  });
  expect(
    normalizeStripeEvent(anEvent("checkout.session.async_payment_failed", { ...session, payment_status: "unpaid" })),
  ).toMatchObject({ kind: "payment_failed", order_id: "order-async", subscription_id: null });
});
