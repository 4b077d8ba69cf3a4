const encoder = new TextEncoder();

/**
 * Lowercase hex HMAC-SHA256 of the concatenated `parts` (text as UTF-8, bytes as they are) keyed
 * with `secret`. Bun's native hasher: WebCrypto's key import and asynchronous sign cost more than
 * the hash itself on every webhook and provider call.
 */
export async function hmacSha256Hex(secret: string, ...parts: readonly (string | Uint8Array)[]): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256", secret);
  for (const part of parts) hasher.update(part);
  return hasher.digest("hex");
}

/** Compares two strings in time that depends only on their length, never on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let difference = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}
