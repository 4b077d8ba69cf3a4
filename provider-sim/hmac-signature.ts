import { createHash, createHmac, timingSafeEqual } from "node:crypto";

const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignedRequest {
  readonly timestamp: string | null;
  readonly signature: string | null;
  readonly method: string;
  /** Path plus query string, exactly as requested. */
  readonly target: string;
  readonly body: Uint8Array;
}

/** Compares secrets in constant time whatever their lengths, by comparing their digests. */
export function secretsEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * `X-Marketplace-Signature: v1=<hex>[,v1=<hex>...]` over `<timestamp>.<METHOD>.<path?query>.<raw body>`;
 * one matching value suffices (secret rotation), and the timestamp must be within 300 s of `nowSeconds`.
 */
export function isValidSignature(request: SignedRequest, secret: string, nowSeconds: number): boolean {
  const { timestamp, signature } = request;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", secret)
    .update(`${timestamp}.${request.method.toUpperCase()}.${request.target}.`)
    .update(request.body)
    .digest();
  let matched = false;
  for (const part of signature.split(",")) {
    const hex = /^\s*v1=([0-9a-f]{64})\s*$/i.exec(part)?.[1];
    // No early exit: every candidate is compared, so timing does not tell which one matched.
    if (hex && timingSafeEqual(Buffer.from(hex, "hex"), expected)) matched = true;
  }
  return matched;
}
