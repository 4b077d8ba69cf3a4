import { describe, expect, test } from "bun:test";
import { paymentEventJob } from "../../../application/payments/jobs.ts";
import type { WebhookRequest } from "../../../application/payments/ports.ts";
import { makeReceiveWebhook } from "../../../application/payments/receive-webhook.ts";
import {
  InvalidWebhookPayload,
  InvalidWebhookSignature,
  UnreadableGatewayEvent,
} from "../../../domain/payments/errors.ts";
import { decodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { aPaidEvent, ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";
import { createInMemoryWebhookInboxWriter } from "../../support/fakes/in-memory-webhook-inbox-writer.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import {
  createWebhookSendingPaymentGateway,
  signedWebhook,
} from "../../support/fakes/webhook-sending-payment-gateway.ts";

function setUp() {
  const intake = createInMemoryWebhookInboxWriter();
  const gateways = {
    gateway_a: createWebhookSendingPaymentGateway("gateway_a"),
    gateway_b: createWebhookSendingPaymentGateway("gateway_b"),
  };
  const log = createRecordingLog();
  const receive = makeReceiveWebhook({ gateways, intake, log });
  return { intake, gateways, receive, log };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("receiving a webhook", () => {
  test("a signed event is kept with its raw body and its normalized event, and its job is queued", async () => {
    const { intake, gateways, receive } = setUp();
    const event = aPaidEvent({ order_id: "order-1" });
    const request = signedWebhook(event);
    expect(await receive("gateway_b", request)).toEqual({ received: true, duplicate: false });
    const [entry] = intake.inbox.all();
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
    expect(intake.jobs.all()).toEqual([
      { kind: paymentEventJob.kind, payload: { inbox_id: entry?.id }, dedupeKey: `inbox:${entry?.id}` },
    ]);
    expect(gateways.gateway_b.callsOf("normalizeWebhookPayload")).toHaveLength(1);
  });

  test("the environment whose secret signed the event is kept", async () => {
    const { intake, receive } = setUp();
    await receive("gateway_b", signedWebhook(aPaidEvent({ order_id: "o" }), { environment: "live" }));
    expect(intake.inbox.all()[0]?.environment).toBe("live");
  });

  test("every kind of event is stored so that it reads back as it arrived", async () => {
    const { intake, receive } = setUp();
    for (const event of Object.values(ONE_OF_EACH_KIND)) await receive(event.gateway, signedWebhook(event));
    const stored = intake.inbox.all().map((entry) => decodeGatewayEvent(entry.event));
    expect(stored).toStrictEqual(Object.values(ONE_OF_EACH_KIND));
  });

  test("the same event twice is acknowledged and changes nothing the second time", async () => {
    const { intake, receive } = setUp();
    const request = signedWebhook(aPaidEvent({ order_id: "o" }));
    await receive("gateway_b", request);
    expect(await receive("gateway_b", request)).toEqual({ received: true, duplicate: true });
    expect(intake.inbox.all()).toHaveLength(1);
    expect(intake.jobs.all()).toHaveLength(1);
  });

  test("the same event id at the other gateway is another event", async () => {
    const { intake, receive } = setUp();
    const event = aPaidEvent({ order_id: "o" });
    await receive("gateway_b", signedWebhook(event));
    await receive("gateway_a", signedWebhook({ ...event, gateway: "gateway_a" }));
    expect(intake.inbox.all()).toHaveLength(2);
  });

  test("an event no flow cares about is kept but starts no job", async () => {
    const { intake, receive } = setUp();
    await receive("gateway_b", signedWebhook(ONE_OF_EACH_KIND.ignored));
    expect(intake.inbox.all()).toMatchObject([{ kind: "ignored", event_type: "customer.created" }]);
    expect(intake.jobs.all()).toEqual([]);
  });

  test("a bad signature is refused before the body is read, and nothing is kept", async () => {
    const { intake, gateways, receive } = setUp();
    const signed = signedWebhook(aPaidEvent({ order_id: "o" }));
    const tampered: WebhookRequest = { ...signed, rawBody: bytes(JSON.stringify(aPaidEvent({ order_id: "x" }))) };
    await expect(receive("gateway_b", tampered)).rejects.toBeInstanceOf(InvalidWebhookSignature);
    await expect(receive("gateway_b", { ...signed, headers: {} })).rejects.toBeInstanceOf(InvalidWebhookSignature);
    expect(gateways.gateway_b.callsOf("normalizeWebhookPayload")).toEqual([]);
    expect(intake.inbox.all()).toEqual([]);
    expect(intake.jobs.all()).toEqual([]);
  });

  test.each([
    ["bytes that are not UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), "not UTF-8"],
    ["text that is not JSON", bytes("{ not json"), "not JSON"],
    ["JSON that is no event of the gateway", bytes('{"hello":"world"}'), "not an event"],
  ])("%s are refused as an invalid payload, and nothing is kept", async (_, body, reason) => {
    const { intake, receive } = setUp();
    const error = await receive("gateway_b", signedWebhook(null, { body })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidWebhookPayload);
    expect((error as Error).message).toContain(reason);
    expect(intake.inbox.all()).toEqual([]);
  });

  test("an event that could not be read back as it was is refused rather than stored", async () => {
    const { intake, receive } = setUp();
    const event = { ...aPaidEvent({ order_id: "o" }), amount: "4900" };
    await expect(receive("gateway_b", signedWebhook(event as never))).rejects.toBeInstanceOf(UnreadableGatewayEvent);
    expect(intake.inbox.all()).toEqual([]);
  });

  test("the answer waits until the entry is stored", async () => {
    const { intake, receive } = setUp();
    const release = intake.hold();
    let answered = false;
    const answer = receive("gateway_b", signedWebhook(aPaidEvent({ order_id: "o" }))).then((receipt) => {
      answered = true;
      return receipt;
    });
    await Bun.sleep(5);
    expect(answered).toBe(false);
    expect(intake.inbox.all()).toEqual([]);
    release();
    expect(await answer).toEqual({ received: true, duplicate: false });
    expect(intake.inbox.all()).toHaveLength(1);
  });

  test("the same event arriving many times at once is stored once, starts one job, and every other copy is a duplicate", async () => {
    const { intake, receive } = setUp();
    const request = signedWebhook(aPaidEvent({ order_id: "o" }));
    const receipts = await Promise.all(Array.from({ length: 20 }, () => receive("gateway_b", request)));
    expect(receipts.filter((receipt) => !receipt.duplicate)).toHaveLength(1);
    expect(receipts.filter((receipt) => receipt.duplicate)).toHaveLength(19);
    expect(intake.inbox.all()).toHaveLength(1);
    expect(intake.jobs.all()).toHaveLength(1);
  });

  test("distinct events arriving at once are each stored with their own job, whatever their order", async () => {
    const { intake, receive } = setUp();
    const events = Array.from({ length: 30 }, (_, i) => aPaidEvent({ order_id: `order-${i}` }));
    const receipts = await Promise.all(events.map((event) => receive("gateway_b", signedWebhook(event))));
    expect(receipts.every((receipt) => !receipt.duplicate)).toBe(true);
    const entries = intake.inbox.all();
    expect(entries.map((entry) => entry.event_id).sort()).toEqual(events.map((event) => event.event_id).sort());
    expect(
      intake.jobs
        .all()
        .map((job) => job.payload.inbox_id)
        .sort(),
    ).toEqual(entries.map((entry) => entry.id).sort());
  });

  test("when the intake fails, the failure reaches the caller and nothing is acknowledged", async () => {
    const { intake, receive, log } = setUp();
    const accept = intake.accept;
    intake.accept = async () => {
      throw Object.assign(new Error("connection lost"), { code: "CONNECTION_CLOSED" });
    };
    await expect(receive("gateway_b", signedWebhook(aPaidEvent({ order_id: "a" })))).rejects.toMatchObject({
      code: "CONNECTION_CLOSED",
    });
    expect(log.messages()).not.toContain("payment webhook received");
    intake.accept = accept;
    expect(await receive("gateway_b", signedWebhook(aPaidEvent({ order_id: "b" })))).toEqual({
      received: true,
      duplicate: false,
    });
    expect(intake.inbox.all()).toHaveLength(1);
  });
});
