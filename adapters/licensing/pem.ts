/** PEM armour (RFC 7468) around DER bytes: SPKI public keys and PKCS#8 private keys. */
export function pem(label: string, der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

export function fromPem(label: string, value: string): Uint8Array<ArrayBuffer> | undefined {
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(value);
  return match?.[1] ? new Uint8Array(Buffer.from(match[1].replace(/\s+/g, ""), "base64")) : undefined;
}
