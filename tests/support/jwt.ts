/** Builds JWTs by hand so tests can forge the malformed and malicious ones a library refuses to make. */
const encoder = new TextEncoder();

function base64url(input: Uint8Array | string): string {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  return Buffer.from(bytes).toString("base64url");
}

export async function forgeJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret: string | undefined,
): Promise<string> {
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  if (secret === undefined || header.alg === "none") return `${signingInput}.`;
  const hash = header.alg === "HS512" ? "SHA-512" : header.alg === "HS384" ? "SHA-384" : "SHA-256";
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(signingInput)));
  return `${signingInput}.${base64url(signature)}`;
}

export function decodeJwtPayload(token: string): Record<string, unknown> {
  const [, payload] = token.split(".");
  return JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8"));
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
