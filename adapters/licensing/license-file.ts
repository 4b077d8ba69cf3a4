/**
 * Offline license files, signed with the license key pair (the public key at
 * `GET /api/licenses/public-key`). A file is a JSON document:
 *
 *     { "format": "MKTF1", "payload": "<base64url of the UTF-8 JSON claims>", "signature": "<base64url>" }
 *
 * The Ed25519 signature covers the ASCII bytes of `MKTF1.<payload>`; the prefix keeps a file's
 * signature and a key's (`MKT1.<claims>`) apart. The claims: `license_id`, `product_id`,
 * `product_name`, `license_type`, `entitlements`, the `fingerprint` it is bound to, `issued_at` and
 * `expires_at` (ISO 8601). The README shows the offline check in a few lines of WebCrypto.
 */
import type { LicenseFileClaims, LicenseFileSigner } from "../../application/licensing/ports.ts";

export const LICENSE_FILE_FORMAT = "MKTF1";

export function createLicenseFileSigner(keyPair: CryptoKeyPair): LicenseFileSigner {
  return {
    async signFile(claims: LicenseFileClaims) {
      const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
      const signed = new TextEncoder().encode(`${LICENSE_FILE_FORMAT}.${payload}`);
      const signature = await crypto.subtle.sign({ name: "Ed25519" }, keyPair.privateKey, signed);
      return JSON.stringify({
        format: LICENSE_FILE_FORMAT,
        payload,
        signature: Buffer.from(signature).toString("base64url"),
      });
    },
  };
}
