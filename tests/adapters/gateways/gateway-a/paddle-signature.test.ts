import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { verifyPaddleSignature } from "../../../../adapters/gateways/gateway-a/paddle-signature.ts";
import { InvalidWebhookSignature } from "../../../../domain/payments/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { signPaddleWebhook } from "../../../support/webhook-signers.ts";
import { failure } from "./paddle-fixtures.ts";

const SECRET = "pdl_ntfset_test_secret_0123456789";
const OTHER_SECRET = "pdl_ntfset_rotated_secret_9876543210";
const NOW_MS = Date.parse("2026-03-01T12:00:00Z");
const NOW_S = NOW_MS / 1000;
const BODY = '{"event_id":"evt_01","event_type":"transaction.completed","data":{"id":"txn_01"}}';

/** Paddle's documented scheme, computed independently of the adapter: HMAC-SHA256 of `<ts>:<raw body>`, lowercase hex. */
const h1 = (secret: string, ts: number, body = BODY) =>
  createHmac("sha256", secret).update(`${ts}:${body}`).digest("hex");

const verify = (header: string | undefined, body = BODY, secrets = [SECRET]) =>
  verifyPaddleSignature(new TextEncoder().encode(body), header, secrets, 300, NOW_MS);

async function rejection(promise: Promise<unknown>): Promise<InvalidWebhookSignature> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(InvalidWebhookSignature);
  const message = (error as Error).message;
  expect(message).not.toContain(SECRET);
  expect(message).not.toContain(h1(SECRET, NOW_S));
  return error as InvalidWebhookSignature;
}

describe("verifyPaddleSignature accepts", () => {
  test("a signature made as Paddle documents it", async () => {
    await expect(verify(`ts=${NOW_S};h1=${h1(SECRET, NOW_S)}`)).resolves.toBeUndefined();
  });

  test("any of several h1 values, when one is valid", async () => {
    await expect(verify(`ts=${NOW_S};h1=${h1(OTHER_SECRET, NOW_S)};h1=${h1(SECRET, NOW_S)}`)).resolves.toBeUndefined();
  });

  test("a signature made with an older secret still configured", async () => {
    await expect(
      verify(`ts=${NOW_S};h1=${h1(OTHER_SECRET, NOW_S)}`, BODY, [SECRET, OTHER_SECRET]),
    ).resolves.toBeUndefined();
  });

  test("a timestamp at the edge of the tolerance, both ways", async () => {
    await expect(verify(`ts=${NOW_S - 300};h1=${h1(SECRET, NOW_S - 300)}`)).resolves.toBeUndefined();
    await expect(verify(`ts=${NOW_S + 300};h1=${h1(SECRET, NOW_S + 300)}`)).resolves.toBeUndefined();
  });

  test("what signPaddleWebhook produces", async () => {
    const header = await signPaddleWebhook(BODY, SECRET, NOW_MS);
    expect(header).toBe(`ts=${NOW_S};h1=${h1(SECRET, NOW_S)}`);
    await expect(verify(header)).resolves.toBeUndefined();
  });
});

describe("verifyPaddleSignature rejects", () => {
  test("a tampered body", async () => {
    const error = await rejection(verify(`ts=${NOW_S};h1=${h1(SECRET, NOW_S)}`, BODY.replace("txn_01", "txn_02")));
    expect(error.message).toContain("no signature matches");
  });

  test("a timestamp too old", async () => {
    const error = await rejection(verify(`ts=${NOW_S - 301};h1=${h1(SECRET, NOW_S - 301)}`));
    expect(error.message).toContain("tolerance");
  });

  test("a timestamp too far in the future", async () => {
    const error = await rejection(verify(`ts=${NOW_S + 301};h1=${h1(SECRET, NOW_S + 301)}`));
    expect(error.message).toContain("tolerance");
  });

  test("a signature made with a wrong secret", async () => {
    expect((await rejection(verify(`ts=${NOW_S};h1=${h1(OTHER_SECRET, NOW_S)}`))).message).toContain(
      "no signature matches",
    );
  });

  test("a header with the timestamp signed apart from the body", async () => {
    expect((await rejection(verify(`ts=${NOW_S};h1=${h1(SECRET, NOW_S - 1)}`))).message).toContain(
      "no signature matches",
    );
  });

  test.each([undefined, "", "   "])("a missing header (%p)", async (header) => {
    const error = await rejection(verify(header));
    expect(error.message).toContain("missing");
  });

  test.each([
    ["no h1", `ts=${NOW_S}`],
    ["no ts", `h1=${"a".repeat(64)}`],
    ["a ts that is not a number", `ts=soon;h1=${"a".repeat(64)}`],
    ["two ts", `ts=${NOW_S};ts=${NOW_S};h1=${"a".repeat(64)}`],
    ["an h1 that is not hex", `ts=${NOW_S};h1=not-a-signature`],
    ["a part without =", `ts=${NOW_S};h1`],
    ["Stripe's format", `t=${NOW_S},v1=${"a".repeat(64)}`],
  ])("a malformed header: %s", async (_, header) => {
    const error = await rejection(verify(header));
    expect(error.message).toContain("malformed");
  });
});

describe("the gateway's verifyWebhook", () => {
  test("uses the settings' secrets, tolerance and clock, and finds the header in any case", async () => {
    const settings = createStaticGatewaySettings({ gateway_a: { webhook_tolerance_seconds: 10 } });
    const gateway = createPaddleGateway({ settings, now: () => NOW_MS });
    const header = `ts=${NOW_S};h1=${h1(SECRET, NOW_S)}`;
    for (const name of ["Paddle-Signature", "paddle-signature"]) {
      expect(
        await gateway.verifyWebhook({ rawBody: new TextEncoder().encode(BODY), headers: { [name]: header } }),
      ).toEqual({ environment: "sandbox" });
    }

    const stale = `ts=${NOW_S - 11};h1=${h1(SECRET, NOW_S - 11)}`;
    await rejection(
      gateway.verifyWebhook({ rawBody: new TextEncoder().encode(BODY), headers: { "paddle-signature": stale } }),
    );
    await rejection(gateway.verifyWebhook({ rawBody: new TextEncoder().encode(BODY), headers: {} }));

    settings.set("gateway_a", { webhook_secrets: [OTHER_SECRET] });
    await rejection(
      gateway.verifyWebhook({ rawBody: new TextEncoder().encode(BODY), headers: { "paddle-signature": header } }),
    );
  });
});
