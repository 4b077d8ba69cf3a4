import { InvalidWebhookSignature } from "../../../application/payments/ports.ts";
import { constantTimeEqual, hmacSha256Hex } from "../../../kit/hmac.ts";

interface ParsedSignature {
  readonly ts: number;
  readonly h1: readonly string[];
}

/** `ts=<unix seconds>;h1=<hex>[;h1=<hex>...]`; keys Paddle may add later are skipped. */
function parseHeader(header: string): ParsedSignature {
  let ts: number | undefined;
  const h1: string[] = [];
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) throw new InvalidWebhookSignature("malformed Paddle-Signature header");
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "ts") {
      if (ts !== undefined || !/^\d{1,12}$/.test(value)) {
        throw new InvalidWebhookSignature("malformed Paddle-Signature header");
      }
      ts = Number(value);
    } else if (key === "h1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) throw new InvalidWebhookSignature("malformed Paddle-Signature header");
      h1.push(value.toLowerCase());
    }
  }
  if (ts === undefined || h1.length === 0) throw new InvalidWebhookSignature("malformed Paddle-Signature header");
  return { ts, h1 };
}

/**
 * Paddle's webhook signature: any `h1` made with any of `secrets` over `<ts>:<raw body>` (several
 * secrets and several `h1` values both exist because of secret rotation), and `ts` within
 * `toleranceSeconds` of now in either direction, which bounds replays.
 */
export async function verifyPaddleSignature(
  rawBody: Uint8Array,
  header: string | undefined,
  secrets: readonly string[],
  toleranceSeconds: number,
  nowMs: number,
): Promise<void> {
  if (header === undefined || header.trim() === "")
    throw new InvalidWebhookSignature("missing Paddle-Signature header");
  const { ts, h1 } = parseHeader(header);
  if (Math.abs(nowMs / 1000 - ts) > toleranceSeconds) {
    throw new InvalidWebhookSignature("timestamp outside the tolerance");
  }
  for (const secret of secrets) {
    const expected = await hmacSha256Hex(secret, `${ts}:`, rawBody);
    // Every candidate is compared, so timing does not tell which position matched.
    const matches = h1.map((candidate) => constantTimeEqual(candidate, expected));
    if (matches.includes(true)) return;
  }
  throw new InvalidWebhookSignature("no signature matches");
}
