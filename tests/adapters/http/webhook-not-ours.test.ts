import { beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { createLogger } from "../../../kit/logger.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV } from "../../support/gateway-env.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const stripe = new Stripe("sk_test_x");
const STRIPE_SECRET = GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_WEBHOOK_SECRET;
const PADDLE_SECRET = GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_WEBHOOK_SECRET;
const lines: Record<string, unknown>[] = [];
let app: ReturnType<typeof createTestMarketplace>["app"];

beforeAll(() => {
  const logger = createLogger({
    level: "info",
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  app = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV }, logger }).app;
});

const post = (gateway: string, body: string, headers: Record<string, string>) =>
  call(app, "POST", `/api/webhooks/${gateway}`, {
    rawBody: new TextEncoder().encode(body),
    headers: { "content-type": "application/json", ...headers },
  });

function paddleSignature(body: string, secret: string = PADDLE_SECRET): string {
  const ts = Math.floor(Date.now() / 1000);
  return `ts=${ts};h1=${createHmac("sha256", secret).update(`${ts}:${body}`).digest("hex")}`;
}

/** A paid checkout another integration on the same Stripe account made: no order of ours in it. */
const theirStripeSession = (id: string) =>
  JSON.stringify({
    id,
    object: "event",
    type: "checkout.session.completed",
    livemode: false,
    data: {
      object: {
        id: `cs_${id}`,
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        amount_total: 1200,
        currency: "usd",
        client_reference_id: null,
        metadata: { their_cart: "c_42" },
        payment_intent: `pi_${id}`,
      },
    },
  });

/** A completed transaction another integration on the same Paddle account made. */
const theirPaddleTransaction = (id: string) =>
  JSON.stringify({
    event_id: id,
    event_type: "transaction.completed",
    occurred_at: "2026-03-01T12:00:00Z",
    data: {
      id: `txn_${id}`,
      status: "completed",
      origin: "web",
      custom_data: { their_cart: "c_42" },
      currency_code: "EUR",
      details: { totals: { grand_total: "1200", tax: "0", subtotal: "1200" } },
    },
  });

/** What the marketplace kept of an event: its inbox row, any job for it, and the orders it touched. */
async function keptOf(eventId: string) {
  const sql = db.current.sql;
  const inbox = await sql<{ id: string; kind: string; event_type: string }[]>`
    select id, kind, event_type from webhook_inbox where event_id = ${eventId}`;
  const jobs = await sql`select 1 from jobs where payload->>'inbox_id' = ${inbox[0]?.id ?? ""}`;
  const [orders] = await sql<{ count: number }[]>`select count(*)::int as count from orders`;
  const [payments] = await sql<{ count: number }[]>`select count(*)::int as count from payments`;
  return { inbox: [...inbox], jobs: jobs.length, orders: orders?.count, payments: payments?.count };
}

const notOursLines = (eventId: string) =>
  lines.filter((line) => line.msg === "gateway event not ours; ignored" && line.event_id === eventId);

describe("a gateway event for a checkout this marketplace did not create", () => {
  test("gateway_b: answered 200, kept as ignored, no job and no order change, one log line saying why", async () => {
    const body = theirStripeSession("evt_theirs_b");
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret: STRIPE_SECRET });
    const response = await post("gateway_b", body, { "stripe-signature": header });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true, duplicate: false });
    expect(await keptOf("evt_theirs_b")).toEqual({
      inbox: [{ id: expect.any(String), kind: "ignored", event_type: "checkout.session.completed" }],
      jobs: 0,
      orders: 0,
      payments: 0,
    });
    expect(notOursLines("evt_theirs_b")).toEqual([
      expect.objectContaining({
        gateway: "gateway_b",
        type: "checkout.session.completed",
        reason: "the checkout session names no order",
      }),
    ]);
  });

  test("gateway_a: answered 200, kept as ignored, no job and no order change, one log line saying why", async () => {
    const body = theirPaddleTransaction("evt_theirs_a");
    const response = await post("gateway_a", body, { "paddle-signature": paddleSignature(body) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true, duplicate: false });
    expect(await keptOf("evt_theirs_a")).toEqual({
      inbox: [{ id: expect.any(String), kind: "ignored", event_type: "transaction.completed" }],
      jobs: 0,
      orders: 0,
      payments: 0,
    });
    expect(notOursLines("evt_theirs_a")).toEqual([
      expect.objectContaining({
        gateway: "gateway_a",
        type: "transaction.completed",
        reason: "the transaction names no order",
      }),
    ]);
  });

  test("a bad signature is still refused with 400 before the body is read", async () => {
    const stripeBody = theirStripeSession("evt_theirs_forged_b");
    const forged = await stripe.webhooks.generateTestHeaderStringAsync({ payload: stripeBody, secret: "whsec_other" });
    expectProblemShape(
      await post("gateway_b", stripeBody, { "stripe-signature": forged }),
      400,
      "INVALID_WEBHOOK_SIGNATURE",
    );
    const paddleBody = theirPaddleTransaction("evt_theirs_forged_a");
    expectProblemShape(
      await post("gateway_a", paddleBody, { "paddle-signature": paddleSignature(paddleBody, "pdl_other") }),
      400,
      "INVALID_WEBHOOK_SIGNATURE",
    );
    expect((await keptOf("evt_theirs_forged_b")).inbox).toEqual([]);
    expect((await keptOf("evt_theirs_forged_a")).inbox).toEqual([]);
    expect(notOursLines("evt_theirs_forged_b")).toEqual([]);
  });
});
