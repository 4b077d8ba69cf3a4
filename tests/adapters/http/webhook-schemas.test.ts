import { describe, expect, test } from "bun:test";
import { PADDLE_EVENT_TYPES_ACTED_ON } from "../../../adapters/gateways/gateway-a/paddle-events.ts";
import { STRIPE_EVENT_TYPES_ACTED_ON } from "../../../adapters/gateways/gateway-b/stripe-events.ts";
import { GatewayAEventSchema, GatewayBEventSchema } from "../../../adapters/http/webhook-schemas.ts";

describe("the webhook documents", () => {
  test("name, in order, the event types each gateway's normalizer acts on", () => {
    expect(GatewayAEventSchema.properties.event_type.description).toBe(
      "Acted on: transaction.completed, transaction.paid, transaction.payment_failed, subscription.updated, " +
        "subscription.canceled, adjustment.created, adjustment.updated",
    );
    expect(PADDLE_EVENT_TYPES_ACTED_ON).toHaveLength(7);
    expect(GatewayBEventSchema.properties.type.description).toBe(`Acted on: ${STRIPE_EVENT_TYPES_ACTED_ON.join(", ")}`);
    expect(STRIPE_EVENT_TYPES_ACTED_ON).toContain("customer.subscription.trial_will_end");
    expect(STRIPE_EVENT_TYPES_ACTED_ON).toHaveLength(12);
  });
});
