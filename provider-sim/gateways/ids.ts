const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** A gateway-style identifier such as `txn_01h...`: the prefix and 26 random lower-case characters. */
export function newGatewayId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(26));
  return `${prefix}_${Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("")}`;
}
