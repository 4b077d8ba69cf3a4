import { constantTimeEqual, hmacSha256Hex } from "../kit/hmac.ts";

const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignedRequest {
  readonly timestamp: string | null;
  readonly signature: string | null;
  readonly method: string;
  /** Path plus query string, exactly as requested. */
  readonly target: string;
  readonly body: Uint8Array;
}

const sha256Hex = (value: string) => new Bun.CryptoHasher("sha256").update(value).digest("hex");

/** Compares secrets in constant time whatever their lengths, by comparing their digests. */
export function secretsEqual(given: string, expected: string): boolean {
  return constantTimeEqual(sha256Hex(given), sha256Hex(expected));
}

/**
 * `X-Marketplace-Signature: v1=<hex>[,v1=<hex>...]` over `<timestamp>.<METHOD>.<path?query>.<raw body>`;
 * one matching value suffices (secret rotation), and the timestamp must be within 300 s of `nowSeconds`.
 */
export async function isValidSignature(request: SignedRequest, secret: string, nowSeconds: number): Promise<boolean> {
  const { timestamp, signature } = request;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = await hmacSha256Hex(
    secret,
    `${timestamp}.${request.method.toUpperCase()}.${request.target}.`,
    request.body,
  );
  let matched = false;
  for (const part of signature.split(",")) {
    const hex = /^\s*v1=([0-9a-f]{64})\s*$/i.exec(part)?.[1];
    // No early exit: every candidate is compared, so timing does not tell which one matched.
    if (hex && constantTimeEqual(hex.toLowerCase(), expected)) matched = true;
  }
  return matched;
}
