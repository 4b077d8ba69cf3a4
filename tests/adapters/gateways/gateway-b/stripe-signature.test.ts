import { describe, expect, test } from "bun:test";
import Stripe from "stripe";
import { verifyStripeSignature } from "../../../../adapters/gateways/gateway-b/stripe-signature.ts";
import { InvalidWebhookSignature } from "../../../../domain/payments/errors.ts";
import { signStripeWebhook } from "../../../support/webhook-signers.ts";

const SECRET = "whsec_test_current_0123456789";
const OLD_SECRET = "whsec_test_previous_9876543210";
const payload = JSON.stringify({ id: "evt_1", object: "event", type: "checkout.session.completed" });
const NOW = Date.parse("2026-03-01T12:00:00Z");
const seconds = (ms: number) => Math.floor(ms / 1000);

// Under Bun the stripe package loads its worker build, whose WebCrypto provider cannot sign
// synchronously: `generateTestHeaderString` throws, so the async variant is used.
const stripe = new Stripe("sk_test_x");
const officialHeader = (options: { payload?: string; secret?: string; timestamp?: number } = {}) =>
  stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: SECRET, ...options });

const verify = (header: string | undefined, body = payload, secrets = [SECRET], nowMs = NOW) =>
  verifyStripeSignature(new TextEncoder().encode(body), header, secrets, 300, nowMs);

async function rejection(promise: Promise<void>): Promise<InvalidWebhookSignature> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidWebhookSignature);
  return error as InvalidWebhookSignature;
}

describe("verifyStripeSignature accepts", () => {
  test("a header made by the official stripe package", async () => {
    await expect(verify(await officialHeader(), payload, [SECRET], Date.now())).resolves.toBeUndefined();
  });

  test("a header made by the official package with an explicit timestamp", async () => {
    await expect(verify(await officialHeader({ timestamp: seconds(NOW) - 120 }))).resolves.toBeUndefined();
  });

  test("two v1 values when one of them is valid", async () => {
    const valid = (await signStripeWebhook(payload, SECRET, NOW)).split(",v1=")[1];
    await expect(verify(`t=${seconds(NOW)},v1=${"0".repeat(64)},v1=${valid}`)).resolves.toBeUndefined();
  });

  test("a signature made with an older secret still in rotation", async () => {
    await expect(
      verify(await signStripeWebhook(payload, OLD_SECRET, NOW), payload, [SECRET, OLD_SECRET]),
    ).resolves.toBeUndefined();
  });

  test("a timestamp exactly at the tolerance, in both directions", async () => {
    await expect(verify(await signStripeWebhook(payload, SECRET, NOW - 300_000))).resolves.toBeUndefined();
    await expect(verify(await signStripeWebhook(payload, SECRET, NOW + 300_000))).resolves.toBeUndefined();
  });

  test("extra v0 signatures beside a valid v1", async () => {
    await expect(
      verify(`${await signStripeWebhook(payload, SECRET, NOW)},v0=${"a".repeat(64)}`),
    ).resolves.toBeUndefined();
  });
});

describe("verifyStripeSignature rejects", () => {
  test("a tampered body", async () => {
    const header = await signStripeWebhook(payload, SECRET, NOW);
    const error = await rejection(verify(header, payload.replace("evt_1", "evt_2")));
    expect(error.message).toContain("no v1 signature matches");
  });

  test("a timestamp too far in the past or the future", async () => {
    for (const at of [NOW - 301_000, NOW + 301_000]) {
      const error = await rejection(verify(await officialHeader({ timestamp: seconds(at) })));
      expect(error.message).toContain("tolerance");
    }
  });

  test("a signature made with another secret", async () => {
    const header = await officialHeader({ secret: "whsec_someone_else", timestamp: seconds(NOW) });
    const error = await rejection(verify(header));
    expect(error.message).toContain("no v1 signature matches");
  });

  test("a header carrying only v0", async () => {
    const v1 = (await signStripeWebhook(payload, SECRET, NOW)).split(",v1=")[1];
    const error = await rejection(verify(`t=${seconds(NOW)},v0=${v1}`));
    expect(error.message).toContain("no v1 signature");
  });

  test.each([
    [undefined, "missing"],
    ["", "missing"],
    ["garbage", "malformed"],
    ["v1=abc", "no timestamp"],
    [`t=soon,v1=${"0".repeat(64)}`, "timestamp is malformed"],
    [`t=${seconds(NOW)}`, "no v1 signature"],
  ])("a missing or malformed header %p", async (header, reason) => {
    expect((await rejection(verify(header))).message).toContain(reason);
  });

  test("anything when no secret is configured", async () => {
    const error = await rejection(verify(await signStripeWebhook(payload, SECRET, NOW), payload, []));
    expect(error.message).toContain("no webhook secret is configured");
  });

  test("without revealing the secret or the expected signature", async () => {
    const expected = (await signStripeWebhook(payload, SECRET, NOW)).split(",v1=")[1] as string;
    const messages = await Promise.all([
      rejection(verify(`t=${seconds(NOW)},v1=${"0".repeat(64)}`)),
      rejection(verify(`t=${seconds(NOW) - 1000},v1=${expected}`)),
      rejection(verify(`t=${seconds(NOW)},v0=${expected}`)),
    ]).then((errors) => errors.map((error) => error.message).join("\n"));
    expect(messages).not.toContain(SECRET);
    expect(messages).not.toContain(expected);
  });
});

test("signStripeWebhook makes headers the official stripe package accepts", async () => {
  const header = await signStripeWebhook(payload, SECRET, Date.now());
  const event = await stripe.webhooks.constructEventAsync(payload, header, SECRET);
  expect(event.id).toBe("evt_1");
});
