import { beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { createTestMarketplace } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV } from "../../support/gateway-env.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let app: ReturnType<typeof createTestMarketplace>["app"];
const stripe = new Stripe("sk_test_x");
const STRIPE_SECRET = GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_WEBHOOK_SECRET;
const PADDLE_SECRET = GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_WEBHOOK_SECRET;
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

beforeAll(() => {
  app = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV } }).app;
});

const concat = (...parts: Uint8Array[]) => {
  const bytes = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
};
const utf8 = (text: string) => new TextEncoder().encode(text);
const stripeEvent = (id: string) =>
  JSON.stringify({ id, object: "event", type: "customer.created", data: { object: {} } });

/** Paddle's scheme computed here over bytes with node:crypto: HMAC-SHA256 of `<ts>:` then the raw body. */
function paddleHeader(bytes: Uint8Array): string {
  const ts = Math.floor(Date.now() / 1000);
  const h1 = createHmac("sha256", PADDLE_SECRET).update(`${ts}:`).update(bytes).digest("hex");
  return `ts=${ts};h1=${h1}`;
}

const post = (gateway: string, bytes: Uint8Array, header: Record<string, string>) =>
  call(app, "POST", `/api/webhooks/${gateway}`, {
    rawBody: bytes as Uint8Array<ArrayBuffer>,
    headers: { "content-type": "application/json", ...header },
  });

const stored = async (eventId: string) =>
  (await db.current.sql`select payload from webhook_inbox where event_id = ${eventId}`)[0]?.payload as
    | string
    | undefined;

describe("webhook signatures are checked over the exact bytes received", () => {
  test("a body starting with a byte-order mark, signed by the stripe package over those bytes, is accepted", async () => {
    const text = stripeEvent("evt_bom_signed");
    const payload = `\uFEFF${text}`;
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: STRIPE_SECRET });
    const response = await post("gateway_b", utf8(payload), { "stripe-signature": header });
    expect(response.status).toBe(200);
    // The signature was checked on the bytes; only afterwards was the text read (without the mark).
    expect(await stored("evt_bom_signed")).toBe(text);
  });

  test("a signature over the body without its byte-order mark does not cover the bytes sent", async () => {
    const text = stripeEvent("evt_bom_stripped");
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload: text, secret: STRIPE_SECRET });
    const response = await post("gateway_b", concat(BOM, utf8(text)), { "stripe-signature": header });
    expectProblemShape(response, 400, "INVALID_WEBHOOK_SIGNATURE");
    expect(await stored("evt_bom_stripped")).toBeUndefined();
  });

  test("invalid UTF-8, signed over the bytes: the signature holds, the payload is refused and nothing stored", async () => {
    const bytes = concat(
      utf8('{"id":"evt_bad_utf8","object":"event","type":"customer.created","data":{"object":{"n":"'),
      new Uint8Array([0xff, 0xfe]),
      utf8('"}}}'),
    );
    const ts = Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", STRIPE_SECRET).update(`${ts}.`).update(bytes).digest("hex");
    const response = await post("gateway_b", bytes, { "stripe-signature": `t=${ts},v1=${v1}` });
    expectProblemShape(response, 400, "INVALID_WEBHOOK_PAYLOAD");
    expect(await stored("evt_bad_utf8")).toBeUndefined();
  });

  test("a signature over the text with invalid bytes replaced (U+FFFD) is refused", async () => {
    const bytes = concat(utf8('{"id":"evt_replaced","type":"x","n":"'), new Uint8Array([0xff]), utf8('"}'));
    const repaired = new TextDecoder().decode(bytes);
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload: repaired, secret: STRIPE_SECRET });
    expectProblemShape(
      await post("gateway_b", bytes, { "stripe-signature": header }),
      400,
      "INVALID_WEBHOOK_SIGNATURE",
    );
  });

  test("gateway_a: the byte-order mark counts too", async () => {
    const text = JSON.stringify({ event_id: "evt_paddle_bom", event_type: "customer.created", data: {} });
    const bytes = concat(BOM, utf8(text));
    expect((await post("gateway_a", bytes, { "paddle-signature": paddleHeader(bytes) })).status).toBe(200);
    expect(await stored("evt_paddle_bom")).toBe(text);
    const unsigned = concat(BOM, utf8(text.replace("evt_paddle_bom", "evt_paddle_bom2")));
    const header = paddleHeader(utf8(text.replace("evt_paddle_bom", "evt_paddle_bom2")));
    expectProblemShape(
      await post("gateway_a", unsigned, { "paddle-signature": header }),
      400,
      "INVALID_WEBHOOK_SIGNATURE",
    );
  });
});
