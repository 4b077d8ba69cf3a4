import { afterEach, describe, expect, test } from "bun:test";
import { createExchangeRecorder } from "../../../provider-sim/gateways/exchange-recorder.ts";
import type { OutgoingWebhook } from "../../../provider-sim/gateways/webhook-deliverer.ts";
import { aSession, aTransaction } from "./flows.ts";
import { createGatewaySim, type GatewaySim, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

const recorded = async (sim: GatewaySim) =>
  (await sim.plain("GET", "/__sim/gateway_exchanges")).body as {
    recording: boolean;
    exchanges: any[];
    dropped: number;
  };
const startRecording = (sim: GatewaySim) =>
  sim.plain("POST", "/__sim/gateway_exchanges", { body: { recording: true } });

describe("recording the sandboxes' exchanges", () => {
  test("is off until asked for", async () => {
    const sim = simWithMarketplace();
    await aSession(sim);
    expect(await recorded(sim)).toEqual({ recording: false, exchanges: [], dropped: 0 });
  });

  test("keeps a Stripe call with its route named and its form body decoded into objects and arrays", async () => {
    const sim = simWithMarketplace();
    expect((await startRecording(sim)).body).toEqual({ recording: true, kept: 0 });
    const session = await aSession(sim, { orderId: "ord_7" });
    await sim.b("GET", `/checkout/sessions/${session.id}?expand[]=line_items`);

    const [created, read] = (await recorded(sim)).exchanges;
    expect(created).toMatchObject({
      kind: "call",
      gateway: "gateway_b",
      method: "POST",
      route: "/v1/checkout/sessions",
      path: "/v1/checkout/sessions",
      status: 200,
      response: { id: session.id, object: "checkout.session" },
    });
    expect(created.request).toMatchObject({
      mode: "payment",
      metadata: { order_id: "ord_7" },
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "2900" } }],
    });
    expect(read).toMatchObject({
      route: "/v1/checkout/sessions/{id}",
      path: `/v1/checkout/sessions/${session.id}`,
      query: { expand: ["line_items"] },
      request: null,
    });
  });

  test("keeps a Paddle call's JSON, a refused call's error body, and each webhook handed to the marketplace", async () => {
    const sim = simWithMarketplace();
    await startRecording(sim);
    const transaction = await aTransaction(sim);
    await sim.a("GET", "/transactions/txn_unknown");
    await sim.a("GET", `/transactions/${transaction.id}`, { token: "pdl_wrong" });
    expect((await sim.plain("POST", `/checkout/gateway_a/${transaction.id}/pay`)).status).toBe(200);
    await marketplace.settle();

    const { exchanges } = await recorded(sim);
    expect(
      exchanges.map((exchange) => [exchange.kind, exchange.route ?? exchange.event_type, exchange.status]),
    ).toEqual([
      ["call", "/transactions", 201],
      ["call", "/transactions/{id}", 404],
      ["call", "/transactions/{id}", 401],
      ...marketplace.received.map((webhook) => ["webhook", webhook.body.event_type, undefined]),
    ]);
    expect(exchanges[0].request.custom_data).toEqual({ order_id: "ord_a1" });
    expect(exchanges[1].response).toMatchObject({ error: { type: "request_error", code: "not_found" } });
    const webhooks = exchanges.filter((exchange) => exchange.kind === "webhook");
    expect(webhooks.map((webhook) => webhook.event)).toEqual(marketplace.received.map((webhook) => webhook.body));
    expect(exchanges.map((exchange) => exchange.seq)).toEqual(exchanges.map((_, index) => index + 1));
  });

  test("leaves out the hosted checkout pages and the controls", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim);
    await startRecording(sim);
    await sim.plain("GET", `/checkout/gateway_b/${session.id}`);
    await sim.plain("GET", "/__sim/gateway_b/tax");
    expect((await recorded(sim)).exchanges).toEqual([]);
  });

  test("a reset forgets what was kept and keeps recording", async () => {
    const sim = simWithMarketplace();
    await startRecording(sim);
    await aSession(sim);
    await sim.plain("POST", "/__sim/reset");
    expect(await recorded(sim)).toEqual({ recording: true, exchanges: [], dropped: 0 });
    await aSession(sim);
    expect((await recorded(sim)).exchanges).toHaveLength(1);
  });

  test("keeps at most its capacity, the newest, and counts what it dropped", () => {
    const recorder = createExchangeRecorder({ capacity: 2 });
    recorder.setRecording(true);
    const webhook = (eventId: string): OutgoingWebhook => ({
      gateway: "gateway_b",
      eventId,
      eventType: "invoice.paid",
      body: JSON.stringify({ id: eventId }),
      sign: async () => ({}),
    });
    for (const id of ["evt_1", "evt_2", "evt_3"]) recorder.recordWebhook(webhook(id));
    const { exchanges, dropped } = recorder.entries();
    expect(exchanges.map((exchange) => (exchange.kind === "webhook" ? exchange.event : null))).toEqual([
      { id: "evt_2" },
      { id: "evt_3" },
    ]);
    expect(dropped).toBe(1);
  });
});
