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
  useE2e,
} from "../support/e2e.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";
import { simControl, subscriptionOf } from "../support/subscriptions.ts";
import { verifiedPayload, webhookReceiver } from "../support/webhook-receiver.ts";

const smtp = await useSmtpInbox();
const receiver = webhookReceiver();
let webhookSecret = "";
afterAll(() => receiver.stop());

const db = useTestDatabase();
const e2e = useE2e(db, { env: smtp.env });
const DAY = 86_400;
const VERIFY_SUBJECT = "Confirm your email address";

beforeAll(async () => {
  const created = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
    token: await adminToken(e2e),
    body: {
      url: receiver.url,
      events: ["subscription.payment_failed", "subscription.renewed", "subscription.trial_ending"],
    },
  });
  expect(created.status).toBe(201);
  webhookSecret = created.body.secret;
});

/** The verified outgoing events about one subscription, by type. */
const eventsAbout = (subscriptionId: string) =>
  receiver.received
    .map((request) => verifiedPayload(webhookSecret, request))
    .filter((event) => event.data.subscription_id === subscriptionId)
    .map((event) => event.type);

const linkIn = (text: string, path: string) =>
  new URL(new RegExp(`https?://\\S+${path.replaceAll("/", "\\/")}\\S*`).exec(text)?.[0] ?? "http://missing/");

async function subscriber() {
  const email = `subscriber-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email, password: "customer password", name: "Ada Lovelace" },
  });
  expect(registered.status).toBe(201);
  await eventually(async () => smtp.inbox.to(email).some((mail) => mail.subject === VERIFY_SUBJECT), 8000, "the link");
  return { email, token: registered.body.token as string, id: registered.body.user.id as string };
}

const mailWith = (email: string, subject: RegExp, count = 1) =>
  eventually(
    async () => {
      const found = smtp.inbox.to(email).filter((mail) => subject.test(mail.subject));
      return found.length >= count && found;
    },
    8000,
    `${count} email(s) ${subject} to ${email}`,
  );

const paymentsOf = (orderId: string) =>
  db.current.sql<{ kind: string; amount: number }[]>`
    select kind, amount::int from payments where order_id = ${orderId} order by created_at, id`;

const deadJobs = () => db.current.sql<{ kind: string }[]>`select kind from jobs where state = 'dead'`;

describe.each(["gateway_a", "gateway_b"] as const)("a failed renewal through %s", (gateway) => {
  test("is emailed with a link to the gateway's portal; a new card entered there recovers it, emailed with its invoice", async () => {
    const buyer = await subscriber();
    const product = await createProduct(e2e, posProductFor(e2e));
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], gateway);
    await fulfillmentReaches(db, orderId, "active", 5000);
    const subscription = await subscriptionOf(db, orderId);
    const gatewayId = subscription.gateway_subscription_id;

    await simControl(e2e, `/__sim/${gateway}/subscriptions/${gatewayId}/next_renewal`, { outcome: "fail" });
    await simControl(e2e, "/__sim/clock", { advance_seconds: 32 * DAY });
    await eventually(async () => (await subscriptionOf(db, orderId)).status === "past_due", 5000, "past due");

    const [failed] = await mailWith(buyer.email, /^We could not renew your /);
    const portalLink = linkIn(failed?.text ?? "", `/api/subscriptions/${subscription.id}/billing-portal`);
    expect(portalLink.origin).toBe(e2e.url);
    expect(failed?.html).toContain("Update your card");
    await eventually(async () => eventsAbout(subscription.id).includes("subscription.payment_failed"), 5000, "event");

    // The emailed link opens the portal without signing in; a tampered one does not.
    const tampered = new URL(portalLink);
    tampered.searchParams.set("access", "0".repeat(64));
    const refused = await fetch(tampered, { redirect: "manual" });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    const opened = await fetch(portalLink, { redirect: "manual" });
    expect(opened.status).toBe(302);
    const portal = opened.headers.get("location") ?? "";
    expect(new URL(portal).pathname.startsWith(`/portal/${gateway}/`)).toBe(true);
    const page = await fetch(portal);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-status="past_due"');

    const enter = (card: string) =>
      fetch(portal, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ card_number: card }),
      });
    const declined = await enter("4000 0000 0000 0002");
    expect(declined.status).toBe(402);
    expect((await subscriptionOf(db, orderId)).status).toBe("past_due");
    const updated = await enter("4242 4242 4242 4242");
    expect(updated.status).toBe(200);
    expect(await updated.text()).toContain("Your card was updated.");

    await eventually(async () => (await subscriptionOf(db, orderId)).status === "active", 5000, "recovered");
    expect([...(await paymentsOf(orderId))]).toEqual([
      { kind: "initial", amount: 3100 },
      { kind: "renewal", amount: 3100 },
    ]);
    const [renewed] = await mailWith(buyer.email, /subscription is renewed$/);
    expect(renewed?.text).toContain("31.00 USD");
    const invoiceLink = linkIn(renewed?.text ?? "", `/api/orders/${orderId}/payments/`);
    // The invoice link works without a session: it redirects to the gateway's document.
    const invoice = await fetch(invoiceLink, { redirect: "manual" });
    expect(invoice.status).toBe(302);
    expect((await fetch(invoice.headers.get("location") ?? "")).status).toBe(200);
    await eventually(async () => eventsAbout(subscription.id).includes("subscription.renewed"), 5000, "event");

    const listed = await http(e2e.url, "GET", "/api/notifications", { token: buyer.token });
    expect((listed.body.items as { kind: string }[]).map((item) => item.kind)).toEqual(
      expect.arrayContaining(["subscription.payment_failed", "subscription.renewed"]),
    );
    expect(eventsAbout(subscription.id).filter((type) => type === "subscription.payment_failed")).toHaveLength(1);
    expect([...(await deadJobs())]).toEqual([]);
  }, 30_000);
});

test("a guest subscriber's failed-renewal email works without an account: the portal link, the order's signed link and a set-a-password link", async () => {
  const email = `guest-subscriber-${crypto.randomUUID()}@example.com`;
  const product = await createProduct(e2e, posProductFor(e2e));
  const { orderId } = await buyAndPay(
    e2e,
    { email, name: "Grace" },
    [{ product_id: product.id, variant: "monthly" }],
    "gateway_a",
  );
  await fulfillmentReaches(db, orderId, "active", 5000);
  const subscription = await subscriptionOf(db, orderId);
  await simControl(e2e, `/__sim/gateway_a/subscriptions/${subscription.gateway_subscription_id}/renew`, { fail: true });
  await eventually(async () => (await subscriptionOf(db, orderId)).status === "past_due", 5000, "past due");

  const [failed] = await mailWith(email, /^We could not renew your /);
  const text = failed?.text ?? "";
  expect(linkIn(text, `/orders/${orderId}`).searchParams.get("access")).toMatch(/^[0-9a-f]{64}$/);
  expect(linkIn(text, "/account/claim").searchParams.get("token")).toBeTruthy();
  const opened = await fetch(linkIn(text, `/api/subscriptions/${subscription.id}/billing-portal`), {
    redirect: "manual",
  });
  expect(opened.status).toBe(302);
  const entered = await fetch(opened.headers.get("location") ?? "", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ card_number: "4242424242424242" }),
  });
  expect(entered.status).toBe(200);
  await eventually(async () => (await subscriptionOf(db, orderId)).status === "active", 5000, "recovered");
  // Once sent, the stored email keeps neither the portal link nor the set-a-password link.
  const stored = await eventually(
    async () => {
      const [row] = await db.current.sql<{ state: string; data: Record<string, string> }[]>`
      select state, data from emails where recipient = ${email} and template = 'subscription.payment_failed'`;
      return row?.state === "sent" && row;
    },
    5000,
    "the email marked sent",
  );
  // The order's status link stays, as in a guest's delivery emails; the credentials are gone.
  expect(stored.data.order_url).toContain(`/orders/${orderId}?access=`);
  expect(stored.data.portal_url).toBeUndefined();
  expect(stored.data.account_url).toBeUndefined();
  expect(JSON.stringify(stored.data)).not.toContain("token=");
}, 30_000);

describe.each(["gateway_a", "gateway_b"] as const)("a trial through %s", (gateway) => {
  test("is told once, within three days of its end, by email, notification and event", async () => {
    const buyer = await subscriber();
    const trial = async (days: number) => {
      const product = await createProduct(e2e, posProductFor(e2e, { supports_trial: true, trial_days: days }));
      const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], gateway);
      await fulfillmentReaches(db, orderId, "active", 5000);
      const subscription = await subscriptionOf(db, orderId);
      expect(subscription.status).toBe("trialing");
      return subscription;
    };
    const far = await trial(14);
    const near = await trial(2);

    expect(await e2e.marketplace.tick()).toEqual({ ran: true });
    expect(await e2e.marketplace.tick()).toEqual({ ran: true });
    const [mail] = await mailWith(buyer.email, /trial ends on \d{1,2} \w+ \d{4}$/);
    expect(mail?.text).toContain("Ada Lovelace");
    await eventually(async () => eventsAbout(near.id).includes("subscription.trial_ending"), 5000, "event");
    await Bun.sleep(300);
    expect(smtp.inbox.to(buyer.email).filter((each) => each.subject.includes("trial ends"))).toHaveLength(1);
    expect(eventsAbout(near.id).filter((type) => type === "subscription.trial_ending")).toHaveLength(1);
    // Twelve days from its end, the other trial is not told yet.
    expect(eventsAbout(far.id)).toEqual([]);
    const listed = await http(e2e.url, "GET", "/api/notifications", { token: buyer.token });
    const kinds = (listed.body.items as { kind: string; data: { subscription_id?: string } }[]).map(
      (item) => `${item.kind}:${item.data.subscription_id ?? ""}`,
    );
    expect(kinds).toContain(`subscription.trial_ending:${near.id}`);
    expect(kinds).not.toContain(`subscription.trial_ending:${far.id}`);
  }, 30_000);
});

test("gateway_b tells of a trial's end itself (customer.subscription.trial_will_end), and the tick does not tell it again", async () => {
  const buyer = await subscriber();
  const trial = async (days: number) => {
    const product = await createProduct(e2e, posProductFor(e2e, { supports_trial: true, trial_days: days }));
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    await fulfillmentReaches(db, orderId, "active", 5000);
    return subscriptionOf(db, orderId);
  };
  const told = (id: string) => eventsAbout(id).filter((type) => type === "subscription.trial_ending");
  const mails = () => smtp.inbox.to(buyer.email).filter((each) => each.subject.includes("trial ends"));

  // Ten days: only the gateway's event, three days before the end on its clock, tells it.
  const ten = await trial(10);
  await simControl(e2e, "/__sim/clock", { advance_seconds: 8 * DAY });
  await mailWith(buyer.email, /trial ends on /);
  await eventually(async () => told(ten.id).length === 1, 5000, "the event");

  // Two days: the tick (on the marketplace's clock) and the gateway's event both find it.
  const two = await trial(2);
  expect(await e2e.marketplace.tick()).toEqual({ ran: true });
  await mailWith(buyer.email, /trial ends on /, 2);
  await simControl(e2e, "/__sim/clock", { advance_seconds: 60 });
  await eventually(
    async () =>
      (
        await db.current.sql`
          select 1 from webhook_inbox
          where event_type = 'trial_ending' and processed_at is not null
            and payload::jsonb->'data'->'object'->>'id' = ${two.gateway_subscription_id}`
      ).length === 1,
    5000,
    "the gateway's own notice of the two-day trial",
  );
  expect(await e2e.marketplace.tick()).toEqual({ ran: true });
  await Bun.sleep(500);
  expect(mails()).toHaveLength(2);
  expect(told(ten.id)).toHaveLength(1);
  expect(told(two.id)).toHaveLength(1);
  expect([...(await deadJobs())]).toEqual([]);
}, 30_000);
