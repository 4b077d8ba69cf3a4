import { describe, expect, test } from "bun:test";
import {
  InvalidWebhookPayload,
  InvalidWebhookSignature,
  type WebhookRequest,
} from "../../../application/payments/ports.ts";
import { makeReceiveWebhook, PAYMENT_EVENT_JOB } from "../../../application/payments/receive-webhook.ts";
import { decodeGatewayEvent, UnreadableGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { aPaidEvent, ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import {
  createWebhookSendingPaymentGateway,
  signedWebhook,
} from "../../support/fakes/webhook-sending-payment-gateway.ts";

function setUp() {
  const uow = createInMemoryUnitOfWork();
  const gateways = {
    gateway_a: createWebhookSendingPaymentGateway("gateway_a"),
    gateway_b: createWebhookSendingPaymentGateway("gateway_b"),
  };
  const receive = makeReceiveWebhook({ gateways, uow, log: createRecordingLog() });
  return { uow, gateways, receive };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("receiving a webhook", () => {
  test("a signed event is kept with its raw body and its normalized event, and its job is queued", async () => {
    const { uow, gateways, receive } = setUp();
    const event = aPaidEvent({ order_id: "order-1" });
    const request = signedWebhook(event);
    expect(await receive("gateway_b", request)).toEqual({ received: true, duplicate: false });
    const [entry] = uow.inbox.all();
    expect(entry).toMatchObject({
      gateway: "gateway_b",
      event_id: event.event_id,
      environment: "sandbox",
      kind: "paid",
      event_type: "paid",
      payload: new TextDecoder().decode(request.rawBody),
      processed_at: null,
    });
    expect(decodeGatewayEvent(entry?.event)).toStrictEqual(event);
    expect(uow.jobs.all()).toEqual([
      { kind: PAYMENT_EVENT_JOB, payload: { inbox_id: entry?.id }, dedupeKey: `inbox:${entry?.id}` },
    ]);
    expect(gateways.gateway_b.callsOf("normalizeWebhookPayload")).toHaveLength(1);
  });

  test("the environment whose secret signed the event is kept", async () => {
    const { uow, receive } = setUp();
    await receive("gateway_b", signedWebhook(aPaidEvent({ order_id: "o" }), { environment: "live" }));
    expect(uow.inbox.all()[0]?.environment).toBe("live");
  });

  test("every kind of event is stored so that it reads back as it arrived", async () => {
    const { uow, receive } = setUp();
    for (const event of Object.values(ONE_OF_EACH_KIND)) await receive(event.gateway, signedWebhook(event));
    const stored = uow.inbox.all().map((entry) => decodeGatewayEvent(entry.event));
    expect(stored).toStrictEqual(Object.values(ONE_OF_EACH_KIND));
  });

  test("the same event twice is acknowledged and changes nothing the second time", async () => {
    const { uow, receive } = setUp();
    const request = signedWebhook(aPaidEvent({ order_id: "o" }));
    await receive("gateway_b", request);
    expect(await receive("gateway_b", request)).toEqual({ received: true, duplicate: true });
    expect(uow.inbox.all()).toHaveLength(1);
    expect(uow.jobs.all()).toHaveLength(1);
  });

  test("the same event id at the other gateway is another event", async () => {
    const { uow, receive } = setUp();
    const event = aPaidEvent({ order_id: "o" });
    await receive("gateway_b", signedWebhook(event));
    await receive("gateway_a", signedWebhook({ ...event, gateway: "gateway_a" }));
    expect(uow.inbox.all()).toHaveLength(2);
  });

  test("an event no flow cares about is kept but starts no job", async () => {
    const { uow, receive } = setUp();
    await receive("gateway_b", signedWebhook(ONE_OF_EACH_KIND.ignored));
    expect(uow.inbox.all()).toMatchObject([{ kind: "ignored", event_type: "customer.created" }]);
    expect(uow.jobs.all()).toEqual([]);
  });

  test("a bad signature is refused before the body is read, and nothing is kept", async () => {
    const { uow, gateways, receive } = setUp();
    const signed = signedWebhook(aPaidEvent({ order_id: "o" }));
    const tampered: WebhookRequest = { ...signed, rawBody: bytes(JSON.stringify(aPaidEvent({ order_id: "x" }))) };
    await expect(receive("gateway_b", tampered)).rejects.toBeInstanceOf(InvalidWebhookSignature);
    await expect(receive("gateway_b", { ...signed, headers: {} })).rejects.toBeInstanceOf(InvalidWebhookSignature);
    expect(gateways.gateway_b.callsOf("normalizeWebhookPayload")).toEqual([]);
    expect(uow.inbox.all()).toEqual([]);
    expect(uow.jobs.all()).toEqual([]);
  });

  test.each([
    ["bytes that are not UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), "not UTF-8"],
    ["text that is not JSON", bytes("{ not json"), "not JSON"],
    ["JSON that is no event of the gateway", bytes('{"hello":"world"}'), "not an event"],
  ])("%s are refused as an invalid payload, and nothing is kept", async (_, body, reason) => {
    const { uow, receive } = setUp();
    const error = await receive("gateway_b", signedWebhook(null, { body })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidWebhookPayload);
    expect((error as Error).message).toContain(reason);
    expect(uow.inbox.all()).toEqual([]);
  });

  test("an event that could not be read back as it was is refused rather than stored", async () => {
    const { uow, receive } = setUp();
    const event = { ...aPaidEvent({ order_id: "o" }), amount: "4900" };
    await expect(receive("gateway_b", signedWebhook(event as never))).rejects.toBeInstanceOf(UnreadableGatewayEvent);
    expect(uow.inbox.all()).toEqual([]);
  });

  test("a failure while storing keeps neither the entry nor the job", async () => {
    const { uow, receive } = setUp();
    const enqueue = uow.jobs.enqueue;
    uow.jobs.enqueue = async () => {
      throw new Error("queue unavailable");
    };
    await expect(receive("gateway_b", signedWebhook(aPaidEvent({ order_id: "o" })))).rejects.toThrow(
      "queue unavailable",
    );
    uow.jobs.enqueue = enqueue;
    expect(uow.inbox.all()).toEqual([]);
  });
});
