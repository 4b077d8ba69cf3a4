import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  SANDBOX,
  useE2e,
} from "../support/e2e.ts";
import { SIM_TOKEN } from "../support/provider-sim.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";
import { atSandbox, simControl, subscriptionOf } from "../support/subscriptions.ts";
import { verifiedPayload, webhookReceiver } from "../support/webhook-receiver.ts";

const smtp = await useSmtpInbox();
const receiver = webhookReceiver();
let webhookSecret = "";
afterAll(() => receiver.stop());

const db = useTestDatabase();
const e2e = useE2e(db, { env: smtp.env });
const DAY = 86_400;
const MONTHLY = 3100;
const YEARLY = 31000;

beforeAll(async () => {
  const created = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
    token: await adminToken(e2e),
    body: { url: receiver.url, events: ["subscription.plan_changed", "subscription.renewed"] },
  });
  expect(created.status).toBe(201);
  webhookSecret = created.body.secret;
});

const eventsAbout = (subscriptionId: string, type: string) =>
  receiver.received
    .map((request) => verifiedPayload(webhookSecret, request))
    .filter((event) => event.data.subscription_id === subscriptionId && event.type === type);

async function subscriber() {
  const email = `planner-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email, password: "customer password", name: "Ada Lovelace" },
  });
  expect(registered.status).toBe(201);
  return { email, token: registered.body.token as string };
}

const paymentsOf = (orderId: string) =>
  db.current.sql<{ kind: string; amount: number }[]>`
    select kind, amount::int from payments where order_id = ${orderId} order by created_at, id`;

const planOf = async (orderId: string) => {
  const [row] = await db.current.sql<
    { billing_interval: string; pending_interval: string | null; current_period_end: Date }[]
  >`select billing_interval, pending_interval, current_period_end from subscriptions where order_id = ${orderId}`;
  if (!row) throw new Error("no subscription");
  return row;
};

const deadJobs = () => db.current.sql<{ kind: string }[]>`select kind, last_error from jobs where state = 'dead'`;

/** The paid period at the gateway (the marketplace's own clock is not the sandbox's), in milliseconds. */
async function gatewayPeriod(gateway: "gateway_a" | "gateway_b", id: string) {
  if (gateway === "gateway_b") {
    const item = (await atSandbox(e2e, gateway, `/v1/subscriptions/${id}`)).items.data[0];
    return { start: item.current_period_start * 1000, end: item.current_period_end * 1000 };
  }
  const period = (await atSandbox(e2e, gateway, `/subscriptions/${id}`)).current_billing_period;
  return { start: Date.parse(period.starts_at), end: Date.parse(period.ends_at) };
}

const now = async () => new Date((await simControl(e2e, "/__sim/clock", { advance_seconds: 0 })).now as string);

/** The provider's tenant of an order's delivery. */
async function tenantOf(orderId: string) {
  const record = await fulfillmentReaches(db, orderId, "active");
  const response = await fetch(`${e2e.sim.url}/api/marketplace/status/${record.external_reference_id}`, {
    headers: { authorization: `Bearer ${SIM_TOKEN}` },
  });
  return (await response.json()) as { status: string; current_period_end: string };
}

async function subscribed(gateway: "gateway_a" | "gateway_b", variant: "monthly" | "yearly") {
  const buyer = await subscriber();
  const product = await createProduct(e2e, posProductFor(e2e));
  const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant }], gateway);
  await fulfillmentReaches(db, orderId, "active", 5000);
  const subscription = await subscriptionOf(db, orderId);
  return { buyer, product, orderId, subscription };
}

const mailTo = (email: string, subject: RegExp) =>
  eventually(
    async () => smtp.inbox.to(email).find((mail) => subject.test(mail.subject)),
    8000,
    `an email ${subject} to ${email}`,
  );

describe.each(["gateway_a", "gateway_b"] as const)("plan changes through %s", (gateway) => {
  test("monthly → yearly applies now: the gateway's preview is what is charged, the ledger records the proration, the delivery follows", async () => {
    const { buyer, orderId, subscription } = await subscribed(gateway, "monthly");
    const period = await gatewayPeriod(gateway, subscription.gateway_subscription_id);
    await simControl(e2e, "/__sim/clock", { advance_seconds: 10 * DAY });

    const options = await http(e2e.url, "GET", `/api/subscriptions/${subscription.id}/plan-options`, {
      token: buyer.token,
    });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      subscription_id: subscription.id,
      billing_interval: "monthly",
      pending: null,
    });
    const [yearly] = options.body.options;
    expect(options.body.options).toHaveLength(1);
    expect(yearly).toMatchObject({ billing_interval: "yearly", effective: "now", price: YEARLY, next_amount: YEARLY });
    // The credit is the unused part of the month, as the gateway prorates it (to the second or minute).
    const at = await now();
    const unused = (period.end - at.getTime()) / (period.end - period.start);
    expect(Math.abs(yearly.due_now - (YEARLY - MONTHLY * unused))).toBeLessThan(2);

    const changed = await http(e2e.url, "POST", `/api/subscriptions/${subscription.id}/change-plan`, {
      token: buyer.token,
      body: { variant: "yearly" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.change).toMatchObject({ billing_interval: "yearly", effective: "now" });
    expect(changed.body.subscription).toMatchObject({ billing_interval: "yearly", pending_interval: null });
    // A new yearly period starts now.
    const end = new Date(changed.body.subscription.current_period_end).getTime();
    expect(Math.abs(end - (at.getTime() + 365 * DAY * 1000))).toBeLessThan(2 * DAY * 1000);

    await eventually(async () => (await paymentsOf(orderId)).length === 2, 5000, "the proration payment");
    expect([...(await paymentsOf(orderId))]).toEqual([
      { kind: "initial", amount: MONTHLY },
      { kind: "proration", amount: yearly.due_now },
    ]);
    expect((await planOf(orderId)).billing_interval).toBe("yearly");
    // The order shows the plan now beside the variant bought, and the proration among its payments.
    const order = await http(e2e.url, "GET", `/api/orders/${orderId}`, { token: buyer.token });
    expect(order.body.items[0].variant).toBe("monthly");
    expect(order.body.subscriptions).toEqual([
      expect.objectContaining({ subscription_id: subscription.id, billing_interval: "yearly", pending_interval: null }),
    ]);
    expect(order.body.payments.map((payment: { kind: string }) => payment.kind)).toEqual(["initial", "proration"]);
    // The tenant's period follows: a year from now.
    await eventually(
      async () => Math.abs(new Date((await tenantOf(orderId)).current_period_end).getTime() - end) < 2 * DAY * 1000,
      5000,
      "the tenant's yearly period",
    );
    const mail = await mailTo(buyer.email, /subscription is now yearly$/);
    expect(mail?.text).toContain("from the monthly plan to the yearly plan");
    await eventually(async () => eventsAbout(subscription.id, "subscription.plan_changed").length === 1, 5000, "event");
    const notices = await http(e2e.url, "GET", "/api/notifications", { token: buyer.token });
    expect(
      (notices.body.items as { kind: string }[]).filter((n) => n.kind === "subscription.plan_changed"),
    ).toHaveLength(1);

    // Asked again, the subscription is already yearly.
    const again = await http(e2e.url, "POST", `/api/subscriptions/${subscription.id}/change-plan`, {
      token: buyer.token,
      body: { variant: "yearly" },
    });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([expect.objectContaining({ path: "/variant", code: "PLAN_NOT_OFFERED" })]);
    expect([...(await deadJobs())]).toEqual([]);
  });

  test("yearly → monthly takes effect at the period end: nothing is charged now, the next renewal is monthly", async () => {
    const { buyer, orderId, subscription } = await subscribed(gateway, "yearly");
    const periodEnd = new Date((await gatewayPeriod(gateway, subscription.gateway_subscription_id)).end);
    await simControl(e2e, "/__sim/clock", { advance_seconds: 30 * DAY });

    const options = await http(e2e.url, "GET", `/api/subscriptions/${subscription.id}/plan-options`, {
      token: buyer.token,
    });
    expect(options.status).toBe(200);
    expect(options.body.options).toEqual([
      expect.objectContaining({
        billing_interval: "monthly",
        effective: "period_end",
        due_now: 0,
        next_amount: MONTHLY,
      }),
    ]);
    expect(new Date(options.body.options[0].next_billing_at).getTime()).toBe(periodEnd.getTime());

    const changed = await http(e2e.url, "POST", `/api/subscriptions/${subscription.id}/change-plan`, {
      token: buyer.token,
      body: { variant: "monthly" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.change).toMatchObject({ billing_interval: "monthly", effective: "period_end" });
    expect(new Date(changed.body.change.at).getTime()).toBe(periodEnd.getTime());
    // The paid year runs to its end either way.
    expect(new Date(changed.body.subscription.current_period_end).getTime()).toBe(periodEnd.getTime());
    await Bun.sleep(300);
    expect([...(await paymentsOf(orderId))]).toEqual([{ kind: "initial", amount: YEARLY }]);
    if (gateway === "gateway_a") {
      // Paddle's record is monthly at once; the tenant stays paid until the end of the year paid for.
      await eventually(
        async () => Date.parse((await tenantOf(orderId)).current_period_end) === periodEnd.getTime(),
        5000,
        "the tenant paid until the year's end",
      );
    }

    await simControl(e2e, "/__sim/clock", { advance_seconds: 340 * DAY });
    await eventually(async () => (await paymentsOf(orderId)).length === 2, 5000, "the first monthly renewal");
    expect([...(await paymentsOf(orderId))]).toEqual([
      { kind: "initial", amount: YEARLY },
      { kind: "renewal", amount: MONTHLY },
    ]);
    await eventually(
      async () =>
        (await planOf(orderId)).billing_interval === "monthly" && (await planOf(orderId)).pending_interval === null,
      5000,
      "monthly",
    );
    const next = (await planOf(orderId)).current_period_end.getTime();
    expect(next - periodEnd.getTime()).toBeGreaterThan(27 * DAY * 1000);
    expect(next - periodEnd.getTime()).toBeLessThan(32 * DAY * 1000);
    await mailTo(buyer.email, /subscription is now monthly$/);
    expect(eventsAbout(subscription.id, "subscription.plan_changed")).toHaveLength(1);
    expect([...(await deadJobs())]).toEqual([]);
  });

  test("a plan switched in the gateway's customer portal is followed: the new interval, its proration, one notice", async () => {
    const { buyer, orderId, subscription } = await subscribed(gateway, "monthly");
    const gatewayId = subscription.gateway_subscription_id;
    await simControl(e2e, "/__sim/clock", { advance_seconds: 3 * DAY });
    const key = gateway === "gateway_a" ? SANDBOX.GATEWAY_A_SANDBOX_API_KEY : SANDBOX.GATEWAY_B_SANDBOX_API_KEY;
    // The shop offers yearly in its portal: a yearly price of the subscription's product at the gateway.
    const yearlyPrice =
      gateway === "gateway_b"
        ? await (async () => {
            const product = (await atSandbox(e2e, gateway, `/v1/subscriptions/${gatewayId}`)).items.data[0].price
              .product;
            const created = await fetch(`${e2e.sim.url}/gateway_b/v1/prices`, {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({
                product,
                currency: "usd",
                unit_amount: String(YEARLY),
                "recurring[interval]": "year",
              }),
            });
            return ((await created.json()) as { id: string }).id;
          })()
        : await (async () => {
            const product = (await atSandbox(e2e, gateway, `/subscriptions/${gatewayId}`)).items[0].price.product_id;
            const created = await fetch(`${e2e.sim.url}/gateway_a/prices`, {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: JSON.stringify({
                product_id: product,
                description: "Yearly",
                unit_price: { amount: String(YEARLY), currency_code: "USD" },
                billing_cycle: { interval: "year", frequency: 1 },
                tax_mode: "external",
              }),
            });
            return ((await created.json()) as { data: { id: string } }).data.id;
          })();

    const opened = await http(e2e.url, "POST", `/api/subscriptions/${subscription.id}/billing-portal`, {
      token: buyer.token,
    });
    expect(opened.status).toBe(200);
    const page = await (await fetch(opened.body.url)).text();
    expect(page).toContain(`name="switch_to" value="${yearlyPrice}"`);
    const switched = await fetch(opened.body.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ subscription: gatewayId, switch_to: yearlyPrice }),
    });
    expect(switched.status).toBe(200);
    expect(await switched.text()).toContain("Your plan was changed.");

    await eventually(async () => (await planOf(orderId)).billing_interval === "yearly", 5000, "followed to yearly");
    await eventually(async () => (await paymentsOf(orderId)).some((p) => p.kind === "proration"), 5000, "proration");
    const proration = (await paymentsOf(orderId)).find((p) => p.kind === "proration");
    expect(proration?.amount).toBeGreaterThan(YEARLY - MONTHLY);
    expect(proration?.amount).toBeLessThan(YEARLY);
    await eventually(async () => eventsAbout(subscription.id, "subscription.plan_changed").length === 1, 5000, "event");
    await mailTo(buyer.email, /subscription is now yearly$/);
    expect([...(await deadJobs())]).toEqual([]);
  });

  test("a plan changed in the gateway's dashboard is followed, and a price no variant sells is flagged", async () => {
    const { orderId, subscription } = await subscribed(gateway, "monthly");
    const gatewayId = subscription.gateway_subscription_id;
    await simControl(e2e, "/__sim/clock", { advance_seconds: 5 * DAY });
    const key = gateway === "gateway_a" ? SANDBOX.GATEWAY_A_SANDBOX_API_KEY : SANDBOX.GATEWAY_B_SANDBOX_API_KEY;
    const atGateway = async (interval: "year" | "week") => {
      if (gateway === "gateway_b") {
        const current = await atSandbox(e2e, gateway, `/v1/subscriptions/${gatewayId}`);
        const item = current.items.data[0];
        const form = new URLSearchParams({
          "items[0][id]": item.id,
          "items[0][price_data][currency]": "usd",
          "items[0][price_data][product]": item.price.product,
          "items[0][price_data][unit_amount]": String(interval === "year" ? YEARLY : 900),
          "items[0][price_data][recurring][interval]": interval,
          proration_behavior: "always_invoice",
        });
        return fetch(`${e2e.sim.url}/gateway_b/v1/subscriptions/${gatewayId}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/x-www-form-urlencoded" },
          body: form,
        });
      }
      const current = await atSandbox(e2e, gateway, `/subscriptions/${gatewayId}`);
      return fetch(`${e2e.sim.url}/gateway_a/subscriptions/${gatewayId}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          items: [
            {
              price: {
                description: "changed at the gateway",
                product_id: current.items[0].price.product_id,
                unit_price: { amount: String(interval === "year" ? YEARLY : 900), currency_code: "USD" },
                billing_cycle: { interval, frequency: 1 },
                tax_mode: "external",
              },
              quantity: 1,
            },
          ],
          proration_billing_mode: "prorated_immediately",
        }),
      });
    };
    expect((await atGateway("year")).status).toBe(200);
    await eventually(async () => (await planOf(orderId)).billing_interval === "yearly", 5000, "followed to yearly");
    await eventually(async () => (await paymentsOf(orderId)).some((p) => p.kind === "proration"), 5000, "proration");
    await eventually(async () => eventsAbout(subscription.id, "subscription.plan_changed").length === 1, 5000, "event");

    expect((await atGateway("week")).status).toBe(200);
    const flagged = await eventually(
      async () => {
        const [order] = await db.current.sql<{ needs_attention: boolean; attention_reason: string | null }[]>`
          select needs_attention, attention_reason from orders where id = ${orderId}`;
        return order?.needs_attention && order;
      },
      5000,
      "flagged",
    );
    expect(flagged.attention_reason).toContain("at an interval no variant sells");
    // The delivered plan stays what the marketplace sells until a person looks.
    expect((await planOf(orderId)).billing_interval).toBe("yearly");
    expect([...(await deadJobs())]).toEqual([]);
  });
});

describe("plan changes are refused", () => {
  test("for another customer's subscription (404), and for a variant the product does not sell (422)", async () => {
    const { subscription, product } = await subscribed("gateway_b", "monthly");
    const stranger = await subscriber();
    const foreign = await http(e2e.url, "GET", `/api/subscriptions/${subscription.id}/plan-options`, {
      token: stranger.token,
    });
    expect(foreign.status).toBe(404);
    const wrong = await http(e2e.url, "POST", `/api/subscriptions/${subscription.id}/change-plan`, {
      token: stranger.token,
      body: { variant: "yearly" },
    });
    expect(wrong.status).toBe(404);
    const malformed = await http(e2e.url, "POST", `/api/subscriptions/${subscription.id}/change-plan`, {
      token: stranger.token,
      body: { variant: "weekly" },
    });
    expect(malformed.status).toBe(422);
    expect(product.id).toBeString();
  });
});
