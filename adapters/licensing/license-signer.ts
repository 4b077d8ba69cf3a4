/**
 * License keys, signed with Ed25519 so that installed software can check them offline with nothing
 * but the public key served at `GET /api/licenses/public-key` (SPKI, PEM).
 *
 * Format (version MKT1), three segments joined by ".":
 *
 *     MKT1.<claims>.<signature>
 *
 * - `<claims>`: base64url (RFC 4648 section 5, no padding) of the UTF-8 JSON object
 *   `{ "v": 1, "lid": license id, "pid": product id, "cid": customer id, "typ": license type,
 *      "max": max activations, "iat": issued at (unix seconds), "exp": expiry (unix seconds) or null }`;
 *   `exp: null` means perpetual. A key reissued by the shop also carries `"rev"`, how many times it
 *   was reissued (1, 2, ...), so that it differs from every key the license had, even within a second.
 * - `<signature>`: base64url (no padding) of the 64-byte Ed25519 signature over the ASCII bytes of
 *   `MKT1.<claims>`, i.e. everything before the last ".".
 *
 * To verify: split on ".", require 3 segments and `MKT1`, verify the signature over the first two
 * segments with the public key, then decode the claims and require `v` = 1. Expiry (`exp` against
 * the verifier's clock) and activations are policy, checked by the caller, not by `verify`.
 */
import { KeyObject } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LicenseClaims as StatedClaims } from "../../application/licensing/ports.ts";
import { fromPem, pem } from "./pem.ts";

export const LICENSE_KEY_PREFIX = "MKT1";
export const LICENSE_KEY_FILE = "license-signing-key.pem";
const ED25519 = { name: "Ed25519" } as const;

/** The claims as the key carries them: the format's version, then what the license states. */
export type LicenseClaims = { readonly v: 1 } & StatedClaims;

export interface LicenseSigner {
  sign(claims: Omit<LicenseClaims, "v">): Promise<string>;
  /** The claims of an authentic, well-formed key; undefined for anything else. Expiry is not checked. */
  verify(key: string): Promise<LicenseClaims | undefined>;
  publicKeyPem(): string;
  publicKeyRaw(): Uint8Array;
}

const text = new TextEncoder();
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** Strict: only the canonical unpadded encoding decodes, so no two strings stand for one key. */
function fromB64url(segment: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  const bytes = Buffer.from(segment, "base64url");
  return b64url(bytes) === segment ? new Uint8Array(bytes) : undefined;
}

const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;

function asClaims(value: unknown): LicenseClaims | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const c = value as Record<string, unknown>;
  const valid =
    c.v === 1 &&
    isText(c.lid) &&
    isText(c.pid) &&
    isText(c.cid) &&
    isText(c.typ) &&
    isInteger(c.max) &&
    c.max > 0 &&
    isInteger(c.iat) &&
    (c.exp === null || isInteger(c.exp)) &&
    (c.rev === undefined || (isInteger(c.rev) && c.rev > 0));
  if (!valid) return undefined;
  const claims = { v: 1, lid: c.lid, pid: c.pid, cid: c.cid, typ: c.typ, max: c.max, iat: c.iat, exp: c.exp };
  return (c.rev === undefined ? claims : { ...claims, rev: c.rev }) as LicenseClaims;
}

/** The public half must be extractable (WebCrypto public keys always are); the private half need not be. */
export function createLicenseSigner(keyPair: CryptoKeyPair): LicenseSigner {
  const publicKey = KeyObject.from(keyPair.publicKey);
  const publicPem = pem("PUBLIC KEY", new Uint8Array(publicKey.export({ type: "spki", format: "der" })));
  const raw = new Uint8Array(Buffer.from(publicKey.export({ format: "jwk" }).x ?? "", "base64url"));
  return {
    async sign(claims) {
      const { lid, pid, cid, typ, max, iat, exp, rev } = claims;
      const json = JSON.stringify({ v: 1, lid, pid, cid, typ, max, iat, exp, ...(rev === undefined ? {} : { rev }) });
      const body = `${LICENSE_KEY_PREFIX}.${b64url(text.encode(json))}`;
      const signature = new Uint8Array(await crypto.subtle.sign(ED25519, keyPair.privateKey, text.encode(body)));
      return `${body}.${b64url(signature)}`;
    },
    async verify(key) {
      const parts = key.split(".");
      if (parts.length !== 3 || parts[0] !== LICENSE_KEY_PREFIX) return undefined;
      const payload = fromB64url(parts[1] ?? "");
      const signature = fromB64url(parts[2] ?? "");
      if (!payload || signature?.length !== 64) return undefined;
      const body = text.encode(`${parts[0]}.${parts[1]}`);
      if (!(await crypto.subtle.verify(ED25519, keyPair.publicKey, signature, body))) return undefined;
      try {
        return asClaims(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload)));
      } catch {
        return undefined;
      }
    },
    publicKeyPem: () => publicPem,
    publicKeyRaw: () => raw.slice(),
  };
}

/** WebCrypto cannot derive a public key from a private one; the JWK export of an OKP key carries it (`x`). */
async function pairFromPkcs8(der: Uint8Array<ArrayBuffer>): Promise<CryptoKeyPair> {
  let jwk: JsonWebKey;
  try {
    jwk = await crypto.subtle.exportKey("jwk", await crypto.subtle.importKey("pkcs8", der, ED25519, true, ["sign"]));
  } catch {
    throw new Error("the license signing key is not an Ed25519 private key in PKCS#8 form");
  }
  const publicKey = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, ED25519, true, [
    "verify",
  ]);
  const privateKey = await crypto.subtle.importKey("pkcs8", der, ED25519, false, ["sign"]);
  return { privateKey, publicKey };
}

async function generatePkcs8(): Promise<Uint8Array<ArrayBuffer>> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
  return new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
}

/**
 * Generated once and kept (0600). The key is written aside and linked into place, so a reader never
 * sees half a file; of instances racing to create it, the losers read the winner's.
 */
async function persistedPkcs8(dataDir: string): Promise<Uint8Array<ArrayBuffer>> {
  const file = join(dataDir, LICENSE_KEY_FILE);
  const read = async () => {
    const der = fromPem("PRIVATE KEY", await readFile(file, "utf8"));
    if (!der) throw new Error(`${file} does not hold a PKCS#8 PEM private key`);
    return der;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const der = await generatePkcs8();
  const draft = `${file}.${crypto.randomUUID()}.tmp`;
  await writeFile(draft, pem("PRIVATE KEY", der), { mode: 0o600, flag: "wx" });
  try {
    await link(draft, file);
    return der;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return read();
    throw error;
  } finally {
    await unlink(draft);
  }
}

/**
 * The signing key: the configured PKCS#8 PEM when given; else the one kept under `dataDir`
 * (generated on first use); else (tests) a fresh key that lives as long as the process.
 */
export async function loadLicenseKeyPair(options: {
  privateKeyPem?: string;
  dataDir?: string;
}): Promise<CryptoKeyPair> {
  if (options.privateKeyPem) {
    const der = fromPem("PRIVATE KEY", options.privateKeyPem);
    if (!der) throw new Error("the license signing key is not a PKCS#8 PEM private key");
    return pairFromPkcs8(der);
  }
  return pairFromPkcs8(options.dataDir ? await persistedPkcs8(options.dataDir) : await generatePkcs8());
}
