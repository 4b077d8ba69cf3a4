import { describe, expect, setSystemTime, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import {
  newWebhookSecret,
  signWebhook,
  standardWebhookHeaders,
} from "../../../adapters/outgoing-webhooks/standard-webhooks.ts";

// The signing vector of the Standard Webhooks reference libraries (libraries/javascript/src/webhook.test.ts).
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: new Date(1614265330 * 1000),
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("Standard Webhooks signing", () => {
  test("matches the specification's known vector", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  test("headers the reference library verifies", () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: "order.paid", timestamp: new Date().toISOString(), data: { order_id: "o" } });
    const headers = standardWebhookHeaders({ id: "msg_1", timestamp: new Date(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers["webhook-signature"]).toStartWith("v1,");
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  test("one signature per secret during a rotation, each verifiable on its own", () => {
    const [previous, current] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"type":"order.refunded"}';
    const headers = standardWebhookHeaders({ id: "msg_2", timestamp: new Date(), body, secrets: [current, previous] });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
  });

  test("the timestamp header is the attempt's unix seconds, which the receiver holds to its tolerance", () => {
    const secret = newWebhookSecret();
    const at = new Date("2026-03-01T12:00:00.750Z");
    const headers = standardWebhookHeaders({ id: "msg_3", timestamp: at, body: "{}", secrets: [secret] });
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    setSystemTime(at);
    try {
      expect(() => new Webhook(secret).verify("{}", headers)).not.toThrow();
      setSystemTime(new Date(at.getTime() + 10 * 60_000));
      expect(() => new Webhook(secret).verify("{}", headers)).toThrow(/timestamp/i);
    } finally {
      setSystemTime();
    }
  });

  test("a new secret is whsec_ and base64 of 32 random bytes, never the same twice", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
