import { InvalidWebhookSignature } from "../../../application/payments/ports.ts";
import { constantTimeEqual, hmacSha256Hex } from "../../../kit/hmac.ts";

interface ParsedHeader {
  readonly timestamp: number;
  readonly signatures: readonly string[];
}

/** `t=<unix>,v1=<hex>[,v1=<hex>...]`; other schemes (`v0`) are read past and never count. */
function parseHeader(header: string | undefined): ParsedHeader {
  if (header === undefined || header.trim() === "")
    throw new InvalidWebhookSignature("the Stripe-Signature header is missing");
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator < 1) throw new InvalidWebhookSignature("the Stripe-Signature header is malformed");
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value)) throw new InvalidWebhookSignature("the Stripe-Signature timestamp is malformed");
      timestamp = Number(value);
    } else if (key === "v1") {
      signatures.push(value);
    }
  }
  if (timestamp === undefined) throw new InvalidWebhookSignature("the Stripe-Signature header has no timestamp");
  if (signatures.length === 0) throw new InvalidWebhookSignature("the Stripe-Signature header has no v1 signature");
  return { timestamp, signatures };
}

/**
 * Accepts when any `v1` is the HMAC-SHA256 of `<t>.<raw body>` under any of `secrets` (rotation)
 * and `t` is within `toleranceSeconds` of now, in either direction. Reasons never echo a secret
 * or an expected signature.
 */
export async function verifyStripeSignature(
  rawBody: Uint8Array,
  header: string | undefined,
  secrets: readonly string[],
  toleranceSeconds: number,
  nowMs: number,
): Promise<void> {
  const { timestamp, signatures } = parseHeader(header);
  if (secrets.length === 0) throw new InvalidWebhookSignature("no webhook secret is configured");
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) {
    throw new InvalidWebhookSignature("the timestamp is outside the tolerance");
  }
  for (const secret of secrets) {
    const expected = await hmacSha256Hex(secret, `${timestamp}.`, rawBody);
    if (signatures.some((signature) => constantTimeEqual(signature, expected))) return;
  }
  throw new InvalidWebhookSignature("no v1 signature matches");
}
