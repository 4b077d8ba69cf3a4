import { constantTimeEqual, hmacSha256Hex } from "../../kit/hmac.ts";

/**
 * The `key=value` list both gateways sign webhooks with (`ts=…;h1=…` at Paddle, `t=…,v1=…` at
 * Stripe): each key with its values in header order. A part without a key is `malformed()`.
 */
export function readSignatureHeader(header: string, separator: ";" | ",", malformed: () => Error) {
  const values = new Map<string, string[]>();
  for (const part of header.split(separator)) {
    const at = part.indexOf("=");
    if (at < 1) throw malformed();
    const key = part.slice(0, at).trim();
    values.set(key, [...(values.get(key) ?? []), part.slice(at + 1).trim()]);
  }
  return values;
}

/** Checks a webhook's signature header against its raw bytes; throws `InvalidWebhookSignature` when it fails. */
export type SignatureCheck = (
  rawBody: Uint8Array,
  header: string | undefined,
  secrets: readonly string[],
  toleranceSeconds: number,
  nowMs: number,
) => Promise<void>;

export const UNIX_SECONDS = /^\d{1,12}$/;

/** Whether `timestamp` (unix seconds) is within `toleranceSeconds` of now, either way: it bounds replays. */
export const withinTolerance = (timestamp: number, toleranceSeconds: number, nowMs: number) =>
  Math.abs(nowMs / 1000 - timestamp) <= toleranceSeconds;

/**
 * Whether any candidate is the HMAC-SHA256 of `<prefix><raw body>` under any secret (several of
 * each exist while a secret rotates). Every candidate is compared, so timing does not tell which
 * position matched.
 */
export async function anySignatureMatches(
  secrets: readonly string[],
  prefix: string,
  rawBody: Uint8Array,
  candidates: readonly string[],
): Promise<boolean> {
  for (const secret of secrets) {
    const expected = await hmacSha256Hex(secret, prefix, rawBody);
    const matches = candidates.map((candidate) => constantTimeEqual(candidate, expected));
    if (matches.includes(true)) return true;
  }
  return false;
}
