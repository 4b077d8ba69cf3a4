import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];

/** What Stripe was asked to refund: each request's payment intent, amount and Idempotency-Key. */
const asked: { intent: string; amount: number; key: string | null }[] = [];
/** How Stripe answers the next refund requests; by default, it refunds whatever it is asked, without limit. */
let answers: (() => Response | Promise<Response>)[] = [];
/** Holds every refund request until released, to see a request still running. */
let gate: Promise<void> | null = null;

/** The refunds Stripe made, as `GET /v1/refunds` lists them. */
const made: { id: string; payment_intent: string; metadata: { refund_reference: string } }[] = [];

const refunded = (intent: string, amount: number, reference = "") => {
  const refund = {
    id: `re_${crypto.randomUUID().slice(0, 8)}`,
    object: "refund",
    amount,
    currency: "usd",
    status: "succeeded",
    payment_intent: intent,
    metadata: { refund_reference: reference },
  };
  made.unshift(refund);
  return HttpResponse.json(refund);
};

const server = setupServer(
  ...checkoutHandlers(calls),
  http.post(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/refunds`, async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    const intent = form.get("payment_intent") ?? "";
    const amount = Number(form.get("amount") ?? 4900);
    asked.push({ intent, amount, key: request.headers.get("idempotency-key") });
    if (gate) await gate;
    const answer = answers.shift();
    return answer ? answer() : refunded(intent, amount, form.get("metadata[refund_reference]") ?? "");
  }),
  http.get(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/refunds`, ({ request }) => {
    const intent = new URL(request.url).searchParams.get("payment_intent");
    const data = made.filter((refund) => refund.payment_intent === intent);
    return HttpResponse.json({ object: "list", url: "/v1/refunds", has_more: false, data });
  }),
);
/** Paddle's adjustments as the stand-in made them; `loseNextAnswer` makes one but answers a 503. */
const adjustments: { id: string; transaction_id: string; reason: string; status: string; listed: boolean }[] = [];
let loseNextAnswer = false;
/** Paddle lists the next adjustment it makes only once `listLate` says so (it is still being processed). */
let listNextLate = false;
const PADDLE = GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_BASE_URL;
server.use(
  http.get(`${PADDLE}/adjustments`, ({ request }) => {
    const query = new URL(request.url).searchParams;
    const data = adjustments.filter(
      (made) => made.listed && made.transaction_id === query.get("transaction_id") && query.get("action") === "refund",
    );
    const pagination = { per_page: 50, next: `${PADDLE}/adjustments?after=x`, has_more: false, estimated_total: 1 };
    return HttpResponse.json({ data, meta: { request_id: "r", pagination } });
  }),
  http.post(`${PADDLE}/adjustments`, async ({ request }) => {
    const body = (await request.json()) as { transaction_id: string; reason: string };
    const made = { id: `adj_${adjustments.length + 1}`, ...body, action: "refund", status: "approved", listed: true };
    made.listed = !listNextLate;
    listNextLate = false;
    adjustments.push(made);
    if (loseNextAnswer) {
      loseNextAnswer = false;
      return HttpResponse.json({ error: { type: "api_error", code: "internal_error", detail: "" } }, { status: 503 });
    }
    return HttpResponse.json({ data: made, meta: { request_id: "r" } }, { status: 201 });
  }),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customer = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV });
  admin = await tokenFor("admin");
  const registered = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: `refunds-${crypto.randomUUID()}@example.com`, password: "buyer password", name: "Buyer" },
  });
  customer = registered.body.token;
});
afterEach(() => {
  answers = [];
  gate = null;
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

const refund = (orderId: string, body: object, key?: string) =>
  call(marketplace.app, "POST", `/api/admin/orders/${orderId}/refund`, {
    token: admin,
    body,
    ...(key ? { headers: { "idempotency-key": key } } : {}),
  });

/** A checkout through gateway_b paid with 4900 that the gateway confirmed. */
async function aPaidOrder() {
  const product = await call(marketplace.app, "POST", "/api/admin/products", { token: admin, body: aLicenseProduct() });
  const checkout = await call(marketplace.app, "POST", "/api/checkout/create", {
    token: customer,
    body: { items: [{ product_id: product.body.id, variant: "regular" }], payment_gateway: "gateway_b" },
  });
  const orderId = checkout.body.order_id as string;
  const paymentId = `pi_${crypto.randomUUID().slice(0, 8)}`;
  await db.current.sql`update orders set status = 'paid' where id = ${orderId}`;
  await db.current.sql`
    insert into payments (order_id, gateway, payment_id, amount, currency) values (${orderId}, 'gateway_b', ${paymentId}, 4900, 'USD')`;
  return { orderId, paymentId };
}

/** The ledger of one payment: what it counts as refunded, its refunds and the reservations still held. */
async function ledger(paymentId: string) {
  const [payment] = await db.current.sql<{ id: string; refunded_amount: number }[]>`
    select id, refunded_amount from payments where payment_id = ${paymentId}`;
  const rows = await db.current.sql<{ id: string; amount: number; status: string }[]>`
    select id, amount, status from refunds where payment_id = ${payment?.id ?? null} order by created_at`;
  return {
    refunded: payment?.refunded_amount,
    refunds: rows.filter((row) => row.status !== "reserved"),
    reserved: rows.filter((row) => row.status === "reserved"),
  };
}

const askedFor = (paymentId: string) => asked.filter((request) => request.intent === paymentId);

/** Time passes beyond the hold on a reservation: it can be asked about again. */
const holdPasses = (reservationId: string | undefined) =>
  db.current.sql`update refunds set claimed_until = now() - interval '1 second' where id = ${reservationId ?? null}`;

describe("a refund retried under one Idempotency-Key", () => {
  test("sequentially: refunds once, and the first answer is replayed as it was", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    const first = await refund(orderId, { amount: 1000 }, "seq-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    await refund(orderId, { amount: 500 });
    const again = await refund(orderId, { amount: 1000 }, "seq-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(askedFor(paymentId).map((request) => request.amount)).toEqual([1000, 500]);
    expect(await ledger(paymentId)).toMatchObject({ refunded: 1500, reserved: [] });
  });

  test("20 at once: one refund at the gateway and in the ledger; the others wait or replay it", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(orderId, { amount: 1200 }, "burst-1")));
    expect(askedFor(paymentId)).toHaveLength(1);
    const done = answers.filter((answer) => answer.status === 200);
    expect(done.length).toBeGreaterThanOrEqual(1);
    for (const answer of done) expect(answer.body).toEqual(done[0]?.body);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expectProblemShape(answer, 409, "IDEMPOTENT_REQUEST_IN_PROGRESS");
    }
    const after = await ledger(paymentId);
    expect(after).toMatchObject({ refunded: 1200, reserved: [] });
    expect(after.refunds).toHaveLength(1);
  });

  test("with another body is a 422 and reaches no gateway", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    await refund(orderId, { amount: 1000 }, "reuse-1");
    expectProblemShape(await refund(orderId, { amount: 2000 }, "reuse-1"), 422, "IDEMPOTENCY_KEY_REUSED");
    expectProblemShape(await refund(orderId, {}, "reuse-1"), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(askedFor(paymentId)).toHaveLength(1);
  });

  test("while the first is still running is a 409", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    let release = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const running = refund(orderId, { amount: 1000 }, "running-1");
    while (askedFor(paymentId).length === 0) await Bun.sleep(5);
    expectProblemShape(await refund(orderId, { amount: 1000 }, "running-1"), 409, "IDEMPOTENT_REQUEST_IN_PROGRESS");
    release();
    expect((await running).status).toBe(200);
    expect(askedFor(paymentId)).toHaveLength(1);
  });
});

describe("20 different partial refunds at once", () => {
  test("never refund more than was paid, though the gateway would accept more", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => refund(orderId, { amount: 400 }, n % 2 === 0 ? `part-${n}` : undefined)),
    );
    const done = answers.filter((answer) => answer.status === 200);
    expect(done).toHaveLength(12);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expectProblemShape(answer, 422, "REFUND_EXCEEDS_PAYMENT");
    }
    expect(askedFor(paymentId).reduce((sum, request) => sum + request.amount, 0)).toBe(4800);
    const after = await ledger(paymentId);
    expect(after).toMatchObject({ refunded: 4800, reserved: [] });
    expect(after.refunds).toHaveLength(12);
  });
});

describe("a refund whose gateway call fails", () => {
  // `uncertain`: the gateway may have refunded, so the reservation is held and a retry at once is 409.
  test.each([
    ["a 503", () => HttpResponse.json({ error: { type: "api_error", message: "down" } }, { status: 503 }), 502, true],
    ["a 429", () => new HttpResponse(null, { status: 429, headers: { "retry-after": "1" } }), 502, false],
    ["a garbage body", () => new HttpResponse("<html>oops</html>", { status: 200 }), 502, true],
    ["a network error", () => HttpResponse.error(), 502, true],
    [
      "a time-out",
      async () => {
        await delay(2500);
        return HttpResponse.json({});
      },
      504,
      true,
    ],
  ])(
    "with %s holds the amount, and a retry under the same key refunds it once",
    async (_, failure, status, uncertain) => {
      const { orderId, paymentId } = await aPaidOrder();
      answers = [failure];
      const key = `fails-${crypto.randomUUID()}`;
      const failed = await refund(orderId, { amount: 3000 }, key);
      expect(failed.status).toBe(status);
      const held = await ledger(paymentId);
      expect(held).toMatchObject({ refunded: 0, refunds: [], reserved: [{ amount: 3000 }] });
      expectProblemShape(await refund(orderId, { amount: 2000 }), 422, "REFUND_EXCEEDS_PAYMENT");
      if (uncertain) {
        expectProblemShape(await refund(orderId, { amount: 3000 }, key), 409, "REFUND_IN_PROGRESS");
        expect(askedFor(paymentId)).toHaveLength(1);
        await holdPasses(held.reserved[0]?.id);
      }

      const retried = await refund(orderId, { amount: 3000 }, key);
      expect(retried.status).toBe(200);
      const keys = askedFor(paymentId).map((request) => request.key);
      expect(keys).toEqual([keys[0] ?? "", keys[0] ?? ""]);
      expect(keys[0]).toBe(`refund-${held.reserved[0]?.id}`);
      const after = await ledger(paymentId);
      expect(after).toMatchObject({ refunded: 3000, reserved: [] });
      expect(after.refunds).toMatchObject([{ id: held.reserved[0]?.id, amount: 3000, status: "succeeded" }]);
    },
  );

  test("and never retried is settled by the settle job; a late retry under the key refunds nothing more", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    answers = [() => HttpResponse.json({ error: { type: "api_error", message: "down" } }, { status: 503 })];
    const key = `late-${crypto.randomUUID()}`;
    expect((await refund(orderId, { amount: 2500 }, key)).status).toBe(502);
    const [reserved] = (await ledger(paymentId)).reserved;
    // Twenty minutes later: the hold is over, and the job that settles what nobody settled comes due.
    await holdPasses(reserved?.id);
    await db.current.sql`
      update jobs set run_at = now() where kind = 'settle_refund' and payload->>'reservation_id' = ${reserved?.id ?? ""}`;
    marketplace.worker.start();
    try {
      const deadline = Date.now() + 5_000;
      while ((await ledger(paymentId)).reserved.length > 0 && Date.now() < deadline) await Bun.sleep(20);
    } finally {
      await marketplace.worker.stop({ timeoutMs: 2000 });
    }
    expect(await ledger(paymentId)).toMatchObject({ refunded: 2500, reserved: [], refunds: [{ id: reserved?.id }] });
    const retried = await refund(orderId, { amount: 2500 }, key);
    expect(retried.status).toBe(200);
    expect(retried.body.refunds).toMatchObject([{ id: reserved?.id, amount: 2500 }]);
    expect(askedFor(paymentId).map((request) => request.key)).toEqual([
      `refund-${reserved?.id}`,
      `refund-${reserved?.id}`,
    ]);
    expect((await ledger(paymentId)).refunded).toBe(2500);
  });

  test("whose refund Stripe made but whose answer was lost is found by its reference, not made again", async () => {
    // This stand-in keeps no idempotency keys, like Stripe a day after the first request.
    const { orderId, paymentId } = await aPaidOrder();
    answers = [
      () => {
        refunded(paymentId, 2000, `${(asked.at(-1)?.key ?? "").replace(/^refund-/, "")}`);
        return HttpResponse.json({ error: { type: "api_error", message: "down" } }, { status: 503 });
      },
    ];
    const key = `forgotten-${crypto.randomUUID()}`;
    expect((await refund(orderId, { amount: 2000 }, key)).status).toBe(502);
    const [reserved] = (await ledger(paymentId)).reserved;
    await holdPasses(reserved?.id);
    expect((await refund(orderId, { amount: 2000 }, key)).status).toBe(200);
    expect(askedFor(paymentId)).toHaveLength(1);
    expect(made.filter((refund) => refund.payment_intent === paymentId)).toHaveLength(1);
    expect(await ledger(paymentId)).toMatchObject({ refunded: 2000, reserved: [], refunds: [{ id: reserved?.id }] });
  });

  test("with a refusal releases the amount", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    answers = [
      () =>
        HttpResponse.json(
          { error: { type: "invalid_request_error", code: "charge_disputed", message: "disputed" } },
          { status: 400 },
        ),
    ];
    const refused = await refund(orderId, {}, "refused-1");
    expect(refused.status).toBe(502);
    expect(await ledger(paymentId)).toMatchObject({ refunded: 0, refunds: [], reserved: [] });
    expect((await refund(orderId, {}, "refused-1")).status).toBe(200);
    expect(await ledger(paymentId)).toMatchObject({ refunded: 4900, reserved: [] });
  });
});

describe("a gateway_a refund whose answer was lost", () => {
  test("is found at Paddle by its reference on the retry: one adjustment, one refund", async () => {
    const { orderId } = await aPaidOrder();
    const transaction = `txn_${crypto.randomUUID().slice(0, 8)}`;
    await db.current
      .sql`update payments set gateway = 'gateway_a', payment_id = ${transaction} where order_id = ${orderId}`;
    loseNextAnswer = true;
    const key = `paddle-${crypto.randomUUID()}`;
    expect((await refund(orderId, {}, key)).status).toBe(502);
    const [reserved] = (await ledger(transaction)).reserved;
    expect(adjustments.filter((made) => made.transaction_id === transaction)).toHaveLength(1);
    await holdPasses(reserved?.id);

    const retried = await refund(orderId, {}, key);
    expect(retried.status).toBe(200);
    const made = adjustments.filter((each) => each.transaction_id === transaction);
    expect(made).toMatchObject([{ reason: `Refund ${reserved?.id} for order ${orderId}` }]);
    expect(retried.body.refunds).toMatchObject([{ id: reserved?.id, gateway_refund_id: made[0]?.id, amount: 4900 }]);
    expect(await ledger(transaction)).toMatchObject({ refunded: 4900, reserved: [] });
  });

  test("and not yet listed by Paddle is not made again by a retry straight away", async () => {
    const { orderId } = await aPaidOrder();
    const transaction = `txn_${crypto.randomUUID().slice(0, 8)}`;
    await db.current
      .sql`update payments set gateway = 'gateway_a', payment_id = ${transaction} where order_id = ${orderId}`;
    loseNextAnswer = true;
    listNextLate = true;
    const key = `paddle-late-${crypto.randomUUID()}`;
    expect((await refund(orderId, {}, key)).status).toBe(502);
    expectProblemShape(await refund(orderId, {}, key), 409, "REFUND_IN_PROGRESS");
    const made = () => adjustments.filter((each) => each.transaction_id === transaction);
    expect(made()).toHaveLength(1);

    // Paddle has finished processing it: after the hold, the retry finds it.
    for (const each of made()) each.listed = true;
    await holdPasses((await ledger(transaction)).reserved[0]?.id);
    expect((await refund(orderId, {}, key)).status).toBe(200);
    expect(made()).toHaveLength(1);
    expect(await ledger(transaction)).toMatchObject({ refunded: 4900, reserved: [] });
  });
});

describe("the same Idempotency-Key after a failed attempt", () => {
  test("with another body is a 422 and takes nothing of the first attempt's reservation", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    answers = [() => new HttpResponse(null, { status: 429, headers: { "retry-after": "1" } })];
    const key = `reused-${crypto.randomUUID()}`;
    expect((await refund(orderId, { amount: 1000 }, key)).status).toBe(502);
    expectProblemShape(await refund(orderId, { amount: 4000 }, key), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(askedFor(paymentId)).toHaveLength(1);
    expect(await ledger(paymentId)).toMatchObject({ refunded: 0, reserved: [{ amount: 1000 }] });
    expect((await refund(orderId, { amount: 1000 }, key)).status).toBe(200);
    expect(await ledger(paymentId)).toMatchObject({ refunded: 1000, reserved: [] });
  });
});
