import { afterEach, describe, expect, test } from "bun:test";
import { call } from "../../support/http.ts";
import { B_KEY, createGatewaySim, startMarketplace } from "./harness.ts";
import { paidSession } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace> | undefined;
afterEach(() => marketplace?.stop());

async function aPaidIntent() {
  marketplace = startMarketplace();
  const sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
  const session = await paidSession(sim);
  return { sim, intent: session.payment_intent as string };
}

/** What the payment intent's charge has refunded so far. */
async function refundedOn(sim: ReturnType<typeof createGatewaySim>, intent: string): Promise<number> {
  const charge = (await sim.b("GET", `/payment_intents/${intent}`)).body.latest_charge as string;
  return (await sim.b("GET", `/charges/${charge}`)).body.amount_refunded;
}

/** `POST /v1/refunds` with the form and, when given, an `Idempotency-Key`. */
function refund(sim: ReturnType<typeof createGatewaySim>, form: Record<string, string>, key?: string) {
  return call(sim.app, "POST", "/gateway_b/v1/refunds", {
    token: B_KEY,
    rawBody: new URLSearchParams(form).toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
  });
}

describe("gateway_b sandbox: Idempotency-Key, as Stripe honours it", () => {
  test("the same key and parameters replay the first refund, marked Idempotent-Replayed, and refund once", async () => {
    const { sim, intent } = await aPaidIntent();
    const first = await refund(sim, { payment_intent: intent, amount: "500" }, "key-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Parameters in another order are the same parameters.
    const again = await refund(sim, { amount: "500", payment_intent: intent }, "key-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await refundedOn(sim, intent)).toBe(500);
  });

  test("the same key with other parameters is a 400 idempotency_error and refunds nothing", async () => {
    const { sim, intent } = await aPaidIntent();
    await refund(sim, { payment_intent: intent, amount: "500" }, "key-1");
    const other = await refund(sim, { payment_intent: intent, amount: "700" }, "key-1");
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ type: "idempotency_error" });
    expect(await refundedOn(sim, intent)).toBe(500);
  });

  test("without a key, or with another key, each request refunds; a refused request keeps no answer", async () => {
    const { sim, intent } = await aPaidIntent();
    const tooMuch = await refund(sim, { payment_intent: intent, amount: "999999" }, "key-big");
    expect(tooMuch.status).toBe(400);
    expect((await refund(sim, { payment_intent: intent, amount: "100" })).status).toBe(200);
    expect((await refund(sim, { payment_intent: intent, amount: "100" })).status).toBe(200);
    expect((await refund(sim, { payment_intent: intent, amount: "100" }, "key-2")).status).toBe(200);
    expect(await refundedOn(sim, intent)).toBe(300);
    expect((await refund(sim, { payment_intent: intent, amount: "999999" }, "key-big")).body.error).toMatchObject({
      code: "amount_too_large",
    });
  });

  test("a reset forgets the keys", async () => {
    const { sim, intent } = await aPaidIntent();
    await refund(sim, { payment_intent: intent, amount: "500" }, "key-1");
    expect((await sim.plain("POST", "/__sim/reset")).status).toBe(200);
    const next = (await paidSession(sim)).payment_intent as string;
    const after = await refund(sim, { payment_intent: next, amount: "500" }, "key-1");
    expect(after.status).toBe(200);
    expect(after.headers.get("idempotent-replayed")).toBeNull();
  });
});
