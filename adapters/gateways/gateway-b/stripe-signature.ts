import { InvalidWebhookSignature } from "../../../domain/payments/errors.ts";

import * as signature from "../signature-header.ts";

/** `t=<unix>,v1=<hex>[,v1=<hex>...]`; other schemes (`v0`) are read past and never count. */
function parseHeader(header: string | undefined): { readonly timestamp: number; readonly signatures: string[] } {
  if (header === undefined || header.trim() === "")
    throw new InvalidWebhookSignature("the Stripe-Signature header is missing");
  const values = signature.readSignatureHeader(
    header,
    ",",
    () => new InvalidWebhookSignature("the Stripe-Signature header is malformed"),
  );
  const timestamps = values.get("t") ?? [];
  const timestamp = timestamps.at(-1);
  const signatures = values.get("v1") ?? [];
  if (timestamp === undefined) throw new InvalidWebhookSignature("the Stripe-Signature header has no timestamp");
  if (!timestamps.every((value) => signature.UNIX_SECONDS.test(value))) {
    throw new InvalidWebhookSignature("the Stripe-Signature timestamp is malformed");
  }
  if (signatures.length === 0) throw new InvalidWebhookSignature("the Stripe-Signature header has no v1 signature");
  return { timestamp: Number(timestamp), signatures };
}

/**
 * Accepts when any `v1` is the HMAC-SHA256 of `<t>.<raw body>` under any of `secrets` (rotation)
 * and `t` is within `toleranceSeconds` of now, in either direction. Reasons never echo a secret
 * or an expected signature.
 */
export const verifyStripeSignature: signature.SignatureCheck = async (body, header, secrets, tolerance, now) => {
  const { timestamp, signatures } = parseHeader(header);
  if (secrets.length === 0) throw new InvalidWebhookSignature("no webhook secret is configured");
  if (!signature.withinTolerance(timestamp, tolerance, now)) {
    throw new InvalidWebhookSignature("the timestamp is outside the tolerance");
  }
  if (!(await signature.anySignatureMatches(secrets, `${timestamp}.`, body, signatures))) {
    throw new InvalidWebhookSignature("no v1 signature matches");
  }
};
