import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { aManagedSetupProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  FAST_JOBS,
  failOnboarding,
  fulfillmentReaches,
  http,
  posProductFor,
  SANDBOX,
  useE2e,
} from "../support/e2e.ts";
import { deliverEvent, stripeEvent } from "../support/payment-events.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";
import { verifiedPayload, webhookReceiver } from "../support/webhook-receiver.ts";

const OPS = "ops@shop.example";
const smtp = await useSmtpInbox();

const receiver = webhookReceiver();
let webhookSecret = "";
afterAll(() => receiver.stop());

const db = useTestDatabase();
const e2e = useE2e(db, {
  env: {
    SMTP_URL: `smtp://shop:smtp-password@127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Example Shop <shop@shop.example>",
    OPS_EMAIL: OPS,
  },
});

beforeAll(async () => {
  const created = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
    token: await adminToken(e2e),
    body: { url: receiver.url, events: ["order.paid", "fulfillment.ready", "fulfillment.failed"] },
  });
  expect(created.status).toBe(201);
  webhookSecret = created.body.secret;
});

/** The verified webhook event types the shop's systems got about one order. */
const webhooksAbout = (orderId: string) =>
  receiver.received
    .map((request) => verifiedPayload(webhookSecret, request))
    .filter((event) => event.data.order_id === orderId)
    .map((event) => event.type)
    .sort();

async function customer(name = "Ada Lovelace") {
  const email = `buyer-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email, password: "customer password", name },
  });
  expect(registered.status).toBe(201);
  // Registration emails a verification link: it is let through first, so the delivery's email is
  // the only other one, and an SMTP refusal a test arranges falls on it.
  await eventually(async () => smtp.inbox.to(email).some((mail) => mail.subject === VERIFY_SUBJECT), 8000, "the link");
  return { email, token: registered.body.token as string };
}

const VERIFY_SUBJECT = "Confirm your email address";

/** The emails to `address` about its purchases: all but the verification link. */
const purchaseMails = (address: string) => smtp.inbox.to(address).filter((mail) => mail.subject !== VERIFY_SUBJECT);

const mailTo = (address: string, count = 1, timeoutMs = 8000) =>
  eventually(
    async () => purchaseMails(address).length >= count && purchaseMails(address),
    timeoutMs,
    `${count} email(s) to ${address}`,
  );

describe("emails over real SMTP", () => {
  test("a purchase emails the customer that it is ready (text and HTML, the product named and escaped, the links absolute) and tells the shop's systems by signed webhook", async () => {
    const product = await createProduct(
      e2e,
      posProductFor(e2e, { name: `Point <of> Sale & "Co" ${crypto.randomUUID().slice(0, 6)}` }),
    );
    const buyer = await customer("Ada <Lovelace>");
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    await fulfillmentReaches(db, orderId, "active", 5000);
    const [mail] = await mailTo(buyer.email);
    const name =
      (await db.current.sql<{ name: string }[]>`select name from products where id = ${product.id}`)[0]?.name ?? "";
    expect(mail?.subject).toBe(`Your ${name} is ready`);
    expect(mail?.from).toContain("shop@shop.example");
    expect(mail?.messageId).toMatch(/@shop\.example>$/);
    expect(mail?.text).toContain(`Your purchase of ${name} has been delivered.`);
    expect(mail?.text).toContain(`${e2e.url}/orders/${orderId}`);
    expect(mail?.text).toContain("Open your workspace");
    expect(mail?.html).toContain("Point &lt;of&gt; Sale &amp; &quot;Co&quot;");
    expect(mail?.html).toContain("Ada &lt;Lovelace&gt;");
    expect(mail?.html).not.toContain("<of>");
    expect(mail?.html).toContain(`href="${e2e.url}/orders/${orderId}"`);
    const [workspace] = await db.current.sql<{ url: string }[]>`
      select external_workspace_url as url from fulfillment_records where order_id = ${orderId}`;
    expect(mail?.html).toContain(`href="${workspace?.url}"`);
    // The mail server has the message before the job records it sent: wait for the record.
    const stored = await eventually(
      async () => {
        const rows = await db.current.sql<{ state: string; sent_at: Date | null }[]>`
          select state, sent_at from emails where recipient = ${buyer.email} and template <> 'account.verify_email'`;
        return rows.every((row) => row.state !== "pending") && rows;
      },
      5000,
      "the email recorded as sent",
    );
    expect([...stored]).toEqual([expect.objectContaining({ state: "sent", sent_at: expect.any(Date) })]);
    await eventually(async () => webhooksAbout(orderId).length >= 2, 5000, "both webhooks");
    await Bun.sleep(300);
    expect(webhooksAbout(orderId)).toEqual(["fulfillment.ready", "order.paid"]);
  }, 20_000);

  test("a provider failure emails the customer that delivery failed and operations that the job died, and sends fulfillment.failed", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const buyer = await customer();
    await failOnboarding(e2e, { mode: "error", status: 500, count: Number(FAST_JOBS.JOB_MAX_ATTEMPTS) });
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    const record = await fulfillmentReaches(db, orderId, "failed", 8000);
    const [failed] = await mailTo(buyer.email);
    expect(failed?.subject).toContain("We could not deliver your");
    expect(failed?.text).toContain(`failed after ${FAST_JOBS.JOB_MAX_ATTEMPTS} attempts`);
    expect(failed?.text).toContain(`${e2e.url}/orders/${orderId}`);
    const [dead] = await db.current.sql<{ id: string }[]>`
      select id::text from jobs where kind = 'fulfill' and state = 'dead' and payload->>'fulfillment_id' = ${record.id}`;
    const alert = await eventually(
      async () => smtp.inbox.to(OPS).find((mail) => mail.subject.includes(`Job ${dead?.id} (fulfill)`)),
      5000,
      "the dead-job alert",
    );
    expect(alert.text).toContain("HTTP 500");
    expect(alert.text).toContain(`${e2e.url}/api/admin/jobs?state=dead#${dead?.id}`);
    // The next minute's sweep finds it alerted already.
    await e2e.marketplace.tick();
    await Bun.sleep(300);
    expect(smtp.inbox.to(OPS).filter((mail) => mail.subject.includes(`Job ${dead?.id} `))).toHaveLength(1);
    await eventually(async () => webhooksAbout(orderId).length >= 2, 5000, "both webhooks");
    expect(webhooksAbout(orderId)).toEqual(["fulfillment.failed", "order.paid"]);
  }, 20_000);

  test("an SMTP server that refuses twice, then recovers, still delivers the email exactly once", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const buyer = await customer();
    const attemptsBefore = smtp.inbox.attemptsTo(buyer.email);
    smtp.inbox.refuse(2, 451, buyer.email);
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    await fulfillmentReaches(db, orderId, "active", 5000);
    const [mail] = await mailTo(buyer.email);
    await Bun.sleep(500);
    expect(purchaseMails(buyer.email)).toHaveLength(1);
    expect(smtp.inbox.received.filter((received) => received.messageId === mail?.messageId)).toHaveLength(1);
    expect(smtp.inbox.attemptsTo(buyer.email) - attemptsBefore).toBe(3);
    const [job] = await db.current.sql<{ attempts: number; state: string }[]>`
      select j.attempts, j.state from jobs j join emails e on j.payload->>'email_id' = e.id::text
      where e.recipient = ${buyer.email} and e.template <> 'account.verify_email'`;
    expect(job).toEqual({ attempts: 3, state: "done" });
  }, 20_000);

  test("a refusal for good (550) marks the email dead after one attempt, and operations hear of its dead job", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const buyer = await customer();
    smtp.inbox.refuse(1, 550, buyer.email);
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    await fulfillmentReaches(db, orderId, "active", 5000);
    const email = await eventually(
      async () => {
        const [row] = await db.current.sql<{ state: string; last_error: string }[]>`
        select state, last_error from emails where recipient = ${buyer.email} and template <> 'account.verify_email'`;
        return row?.state === "dead" && row;
      },
      5000,
      "the dead email",
    );
    expect(email.last_error).toContain("550");
    expect(purchaseMails(buyer.email)).toHaveLength(0);
    // Its dead job is alerted to operations like any other.
    await eventually(
      async () => smtp.inbox.to(OPS).some((mail) => mail.subject.includes("(send_email)")),
      5000,
      "alert",
    );
  }, 20_000);

  test("a manual task past its due time is alerted once, linking to the admin resource", async () => {
    const product = await createProduct(
      e2e,
      aManagedSetupProduct({ sla_hours: 1, instructions_template: "Call {{customer_email}}" }),
    );
    const buyer = await customer();
    const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "regular" }], "gateway_a");
    const pending = await fulfillmentReaches(db, orderId, "manual_pending", 5000);
    const [task] = await db.current.sql<{ id: string }[]>`
      update ops_tasks set due_at = now() - interval '1 minute'
      where fulfillment_record_id = ${pending.id} returning id`;
    await e2e.marketplace.tick();
    await e2e.marketplace.tick();
    const alert = await eventually(
      async () => smtp.inbox.to(OPS).find((mail) => mail.subject === `[ops] Task ${task?.id} is past its due time`),
      5000,
      "the overdue alert",
    );
    expect(alert.text).toContain(`Call ${buyer.email}`);
    expect(alert.text).toContain(`${e2e.url}/api/admin/manual-tasks?status=open#${task?.id}`);
    await Bun.sleep(300);
    expect(smtp.inbox.to(OPS).filter((mail) => mail.subject.includes(`Task ${task?.id}`))).toHaveLength(1);
  }, 20_000);
});

describe("operations alerts", () => {
  test("an underpaid order needing attention is alerted once, with the reason and the admin link", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const buyer = await customer();
    const checkout = await http(e2e.url, "POST", "/api/checkout/create", {
      token: buyer.token,
      body: { items: [{ product_id: product.id, variant: "monthly" }], payment_gateway: "gateway_b" },
    });
    const orderId = checkout.body.order_id as string;
    const underpaid = stripeEvent(
      "checkout.session.completed",
      {
        id: checkout.body.checkout.session_id,
        object: "checkout.session",
        client_reference_id: orderId,
        metadata: { order_id: orderId },
        payment_status: "paid",
        amount_total: checkout.body.due_today - 1,
        currency: "usd",
        payment_intent: `pi_underpaid_${orderId.slice(0, 8)}`,
      },
      { id: `evt_underpaid_${orderId}` },
    );
    // Told twice, as gateways do: one flag, one alert.
    await deliverEvent(e2e.marketplace, db, "gateway_b", underpaid, SANDBOX.GATEWAY_B_SANDBOX_WEBHOOK_SECRET);
    await deliverEvent(e2e.marketplace, db, "gateway_b", underpaid, SANDBOX.GATEWAY_B_SANDBOX_WEBHOOK_SECRET);
    const alert = await eventually(
      async () => smtp.inbox.to(OPS).find((mail) => mail.subject === `[ops] Order ${orderId} needs attention`),
      5000,
      "the needs-attention alert",
    );
    expect(alert.text).toContain("expected");
    expect(alert.text).toContain(`${e2e.url}/api/admin/orders/${orderId}`);
    expect(alert.html).toContain(`href="${e2e.url}/api/admin/orders/${orderId}"`);
    await Bun.sleep(300);
    expect(smtp.inbox.to(OPS).filter((mail) => mail.subject.includes(orderId))).toHaveLength(1);
  }, 20_000);
});

describe("the customer's inbox", () => {
  test("unread filter, mark one read, mark all read", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const buyer = await customer();
    for (let i = 0; i < 2; i++) {
      const { orderId } = await buyAndPay(e2e, buyer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
      await fulfillmentReaches(db, orderId, "active", 5000);
    }
    const list = (query: string) => http(e2e.url, "GET", `/api/notifications${query}`, { token: buyer.token });
    const unread = await eventually(
      async () => {
        const page = await list("?unread=true");
        return page.body.items.length === 2 && page.body.items;
      },
      5000,
      "two notifications",
    );
    const read = await http(e2e.url, "POST", `/api/notifications/${unread[0].id}/read`, { token: buyer.token });
    expect(read.status).toBe(200);
    expect(read.body.read_at).toBeString();
    expect((await list("?unread=true")).body.items).toHaveLength(1);
    expect((await list("?unread=false")).body.items.map((n: { id: string }) => n.id)).toEqual([unread[0].id]);
    const all = await http(e2e.url, "POST", "/api/notifications/read-all", { token: buyer.token });
    expect(all.body).toEqual({ updated: 1 });
    expect((await list("?unread=true")).body.items).toEqual([]);
    const stranger = await customer();
    const foreign = await http(e2e.url, "POST", `/api/notifications/${unread[1].id}/read`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("NOTIFICATION_NOT_FOUND");
    const bad = await list("?unread=maybe");
    expect(bad.status).toBe(422);
    const paged = await list("?limit=1");
    expect(paged.body.items).toHaveLength(1);
    const next = await list(`?limit=1&cursor=${encodeURIComponent(paged.body.next_cursor)}`);
    expect(next.body.items[0].id).not.toBe(paged.body.items[0].id);
  }, 30_000);
});
