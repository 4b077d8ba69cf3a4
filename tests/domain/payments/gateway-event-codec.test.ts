import { describe, expect, test } from "bun:test";
import { UnreadableGatewayEvent } from "../../../domain/payments/errors.ts";
import type { GatewayEvent } from "../../../domain/payments/gateway-event.ts";
import { decodeGatewayEvent, encodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { aPaidEvent, ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";

/** Through JSON text, as a jsonb column stores and returns it. */
const throughStorage = (event: GatewayEvent) =>
  decodeGatewayEvent(JSON.parse(JSON.stringify(encodeGatewayEvent(event))));

describe("the gateway event codec", () => {
  test.each(Object.entries(ONE_OF_EACH_KIND))("a %s event comes back exactly as it was stored", (_, event) => {
    expect(throughStorage(event)).toStrictEqual(event);
  });

  test("what is stored is plain JSON with the format it was written in", () => {
    const event = ONE_OF_EACH_KIND.paid;
    const stored = encodeGatewayEvent(event);
    expect(stored.format).toBe(1);
    expect(JSON.parse(JSON.stringify(stored))).toStrictEqual(stored);
  });

  test("an absent optional field stays absent and a null stays null", () => {
    const event = aPaidEvent({ order_id: "o", payment: { payment_id: "pi_1", charge_id: null } });
    const back = throughStorage(event);
    if (back.kind !== "paid") throw new Error("kind changed");
    expect(Object.keys(back.payment)).toEqual(["payment_id", "charge_id"]);
    expect(back.payment.charge_id).toBeNull();
    expect("livemode" in back).toBe(false);
  });

  test("an amount that is not an integer of minor units is refused rather than stored", () => {
    expect(() => encodeGatewayEvent(aPaidEvent({ order_id: "o", amount: Number.NaN }))).toThrow(UnreadableGatewayEvent);
    expect(() => encodeGatewayEvent(aPaidEvent({ order_id: "o", tax: 1.5 }))).toThrow(UnreadableGatewayEvent);
    expect(() => encodeGatewayEvent({ ...aPaidEvent({ order_id: "o" }), amount: "4900" as never })).toThrow(
      /event.amount is not an integer amount/,
    );
  });

  test("a field the codec does not know is refused rather than lost", () => {
    const event = { ...aPaidEvent({ order_id: "o" }), coupon: "SPRING" } as GatewayEvent;
    expect(() => encodeGatewayEvent(event)).toThrow(/event.coupon is not known/);
  });

  test("a missing field is refused", () => {
    const { order_id: _, ...withoutOrder } = aPaidEvent({ order_id: "o" });
    expect(() => decodeGatewayEvent({ format: 1, event: withoutOrder })).toThrow(/event.order_id is not a string/);
  });

  test.each([
    ["another format", { format: 2, event: ONE_OF_EACH_KIND.ignored }],
    ["no format", ONE_OF_EACH_KIND.ignored],
    ["an unknown kind", { format: 1, event: { ...ONE_OF_EACH_KIND.ignored, kind: "exploded" } }],
    ["an unknown gateway", { format: 1, event: { ...ONE_OF_EACH_KIND.ignored, gateway: "gateway_z" } }],
    ["a pointer that is not an object", { format: 1, event: { ...ONE_OF_EACH_KIND.refunded, payment: "pi_1" } }],
    ["null", null],
    ["a string", "paid"],
  ])("%s cannot be read back", (_, stored) => {
    expect(() => decodeGatewayEvent(stored)).toThrow(UnreadableGatewayEvent);
  });
});
