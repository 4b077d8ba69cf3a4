import { InvalidWebhookSignature } from "../../../domain/payments/errors.ts";

import * as signature from "../signature-header.ts";

const malformed = () => new InvalidWebhookSignature("malformed Paddle-Signature header");

/** `ts=<unix seconds>;h1=<hex>[;h1=<hex>...]`; keys Paddle may add later are skipped. */
function parseHeader(header: string): { readonly ts: number; readonly h1: readonly string[] } {
  const values = signature.readSignatureHeader(header, ";", malformed);
  const [ts, ...more] = values.get("ts") ?? [];
  const h1 = values.get("h1") ?? [];
  if (ts === undefined || more.length > 0 || !signature.UNIX_SECONDS.test(ts)) throw malformed();
  if (h1.length === 0 || h1.some((value) => !/^[0-9a-f]{64}$/i.test(value))) throw malformed();
  return { ts: Number(ts), h1: h1.map((value) => value.toLowerCase()) };
}

/**
 * Paddle's webhook signature: any `h1` made with any of `secrets` over `<ts>:<raw body>` (several
 * secrets and several `h1` values both exist because of secret rotation), and `ts` within
 * `toleranceSeconds` of now in either direction, which bounds replays.
 */
export const verifyPaddleSignature: signature.SignatureCheck = async (body, header, secrets, tolerance, now) => {
  if (header === undefined || header.trim() === "")
    throw new InvalidWebhookSignature("missing Paddle-Signature header");
  const { ts, h1 } = parseHeader(header);
  if (!signature.withinTolerance(ts, tolerance, now))
    throw new InvalidWebhookSignature("timestamp outside the tolerance");
  if (!(await signature.anySignatureMatches(secrets, `${ts}:`, body, h1))) {
    throw new InvalidWebhookSignature("no signature matches");
  }
};
