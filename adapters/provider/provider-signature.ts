import { hmacSha256Hex } from "../../kit/hmac.ts";

/** `auth_mode: hmac` (openapi/provider.yaml): HMAC-SHA256 of `<timestamp>.<METHOD>.<path>.<raw body>`. */
export async function signProviderRequest(
  secret: string,
  method: string,
  pathWithQuery: string,
  rawBody: string,
  now = Date.now(),
): Promise<{ "x-marketplace-timestamp": string; "x-marketplace-signature": string }> {
  const timestamp = String(Math.floor(now / 1000));
  const signature = await hmacSha256Hex(secret, `${timestamp}.${method}.${pathWithQuery}.${rawBody}`);
  return { "x-marketplace-timestamp": timestamp, "x-marketplace-signature": `v1=${signature}` };
}
