const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `auth_mode: hmac` (openapi/provider.yaml): HMAC-SHA256 of `<timestamp>.<METHOD>.<path>.<raw body>`. */
export async function signProviderRequest(
  secret: string,
  method: string,
  pathWithQuery: string,
  rawBody: string,
  now = Date.now(),
): Promise<{ "x-marketplace-timestamp": string; "x-marketplace-signature": string }> {
  const timestamp = String(Math.floor(now / 1000));
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const signature = await crypto.subtle.sign(
    "HMAC",
    key,
    encoder.encode(`${timestamp}.${method}.${pathWithQuery}.${rawBody}`),
  );
  return { "x-marketplace-timestamp": timestamp, "x-marketplace-signature": `v1=${hex(signature)}` };
}
