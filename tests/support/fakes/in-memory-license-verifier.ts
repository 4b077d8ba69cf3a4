import type { LicenseClaims, LicenseVerifier } from "../../../application/licensing/ports.ts";

export const FAKE_LICENSE_PUBLIC_KEY =
  "-----BEGIN PUBLIC KEY-----\nZmFrZSBsaWNlbnNlIGtleQ==\n-----END PUBLIC KEY-----\n";

/**
 * Stands in for the signer: a key is genuine only if this fake issued it, so any altered or
 * invented key fails verification, as a bad signature would.
 */
export function createInMemoryLicenseVerifier(): LicenseVerifier & {
  issue(claims: Omit<LicenseClaims, "iat">): string;
} {
  const issued = new Map<string, LicenseClaims>();
  return {
    issue(stated) {
      const claims = { ...stated, iat: 1_780_000_000 };
      const key = `FAKE1.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${crypto.randomUUID()}`;
      issued.set(key, claims);
      return key;
    },
    verify: async (key) => issued.get(key),
    publicKeyPem: () => FAKE_LICENSE_PUBLIC_KEY,
  };
}
