const encoder = new TextEncoder();

export interface Sealed {
  readonly iv: Uint8Array;
  readonly ciphertext: Uint8Array;
}

/**
 * AES-256-GCM with a key derived from `SECRETS_KEY`. The reference is the additional data, so a
 * ciphertext copied onto another reference's row fails to open.
 */
export function createSecretCipher(keyMaterial: string) {
  let derived: Promise<CryptoKey> | undefined;
  const cryptoKey = () => {
    derived ??= crypto.subtle
      .digest("SHA-256", encoder.encode(keyMaterial))
      .then((digest) => crypto.subtle.importKey("raw", digest, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
    return derived;
  };
  return {
    async seal(ref: string, value: string): Promise<Sealed> {
      const key = await cryptoKey();
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(ref) },
        key,
        encoder.encode(value),
      );
      return { iv, ciphertext: new Uint8Array(sealed) };
    },
    async open(ref: string, sealed: Sealed): Promise<string> {
      const key = await cryptoKey();
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: new Uint8Array(sealed.iv), additionalData: encoder.encode(ref) },
        key,
        new Uint8Array(sealed.ciphertext),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
