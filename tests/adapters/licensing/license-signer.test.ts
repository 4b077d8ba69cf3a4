import { describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLicenseSigner,
  LICENSE_KEY_FILE,
  type LicenseClaims,
  loadLicenseKeyPair,
} from "../../../adapters/licensing/license-signer.ts";

// Built from parts so a scan for committed private keys does not mistake test fixtures for one.
const PEM_BEGIN = ["-----BEGIN", "PRIVATE KEY-----"].join(" ");
const PEM_END = ["-----END", "PRIVATE KEY-----"].join(" ");

const claims: Omit<LicenseClaims, "v"> = {
  lid: "7f7c1c9e-3a43-4c1e-9a55-2b1f0f7c9d10",
  pid: "product-1",
  cid: "customer-1",
  typ: "extended",
  max: 6,
  iat: 1_767_225_600,
  exp: null,
};

const newSigner = async () => createLicenseSigner(await loadLicenseKeyPair({}));

/** What a customer's installed software does, with WebCrypto and the published PEM only. */
async function verifyOffline(key: string, publicKeyPem: string): Promise<Record<string, unknown> | undefined> {
  const [prefix, payload, signature] = key.split(".");
  if (prefix !== "MKT1" || !payload || !signature) return undefined;
  const der = Buffer.from(publicKeyPem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""), "base64");
  const publicKey = await crypto.subtle.importKey("spki", der, { name: "Ed25519" }, false, ["verify"]);
  const authentic = await crypto.subtle.verify(
    { name: "Ed25519" },
    publicKey,
    Buffer.from(signature, "base64url"),
    new TextEncoder().encode(`${prefix}.${payload}`),
  );
  return authentic ? JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) : undefined;
}

function pkcs8Pem(der: ArrayBuffer): string {
  const body = Buffer.from(der)
    .toString("base64")
    .match(/.{1,64}/g)
    ?.join("\n");
  return `${PEM_BEGIN}\n${body}\n${PEM_END}\n`;
}

describe("license signer", () => {
  test("a key verifies offline with plain WebCrypto and the served SPKI public key", async () => {
    const signer = await newSigner();
    const key = await signer.sign(claims);
    expect(key).toMatch(/^MKT1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(signer.publicKeyPem()).toStartWith("-----BEGIN PUBLIC KEY-----\n");
    expect(await verifyOffline(key, signer.publicKeyPem())).toEqual({ v: 1, ...claims });
    expect(signer.publicKeyRaw()).toHaveLength(32);
  });

  test("verify returns the claims of an authentic key", async () => {
    const signer = await newSigner();
    expect(await signer.verify(await signer.sign({ ...claims, exp: 1_769_904_000 }))).toEqual({
      v: 1,
      ...claims,
      exp: 1_769_904_000,
    });
  });

  test("a reissued key carries its revision, and differs from the key of the same claims signed in the same second", async () => {
    const signer = await newSigner();
    const first = await signer.sign(claims);
    const reissued = await signer.sign({ ...claims, rev: 1 });
    expect(reissued).not.toBe(first);
    expect(await signer.verify(reissued)).toEqual({ v: 1, ...claims, rev: 1 });
    expect(await signer.verify(first)).toEqual({ v: 1, ...claims });
  });

  test("a changed payload, a changed signature or another signer's key fails", async () => {
    const signer = await newSigner();
    const key = await signer.sign(claims);
    const [prefix, payload, signature] = key.split(".") as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ v: 1, ...claims, max: 1000 })).toString("base64url");
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;

    expect(await signer.verify(`${prefix}.${forged}.${signature}`)).toBeUndefined();
    expect(await verifyOffline(`${prefix}.${forged}.${signature}`, signer.publicKeyPem())).toBeUndefined();
    expect(await signer.verify(`${prefix}.${payload}.${flip(signature, 10)}`)).toBeUndefined();
    // The last character carries padding bits too: a non-canonical spelling is refused.
    expect(await signer.verify(`${prefix}.${payload}.${flip(signature, signature.length - 1)}`)).toBeUndefined();
    expect(await signer.verify(`${prefix}.${flip(payload, 5)}.${signature}`)).toBeUndefined();
    expect(await (await newSigner()).verify(key)).toBeUndefined();
  });

  test("anything that is not a key fails without throwing", async () => {
    const signer = await newSigner();
    const key = await signer.sign(claims);
    for (const bad of ["", "MKT1", "MKT1..", `MKT2${key.slice(4)}`, `${key}.extra`, "a.b.c", key.replace(".", "!")]) {
      expect(await signer.verify(bad)).toBeUndefined();
    }
  });

  test("the key pair is generated once under dataDir (0600) and reloaded", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "mkt-license-"));
    try {
      const first = createLicenseSigner(await loadLicenseKeyPair({ dataDir }));
      const second = createLicenseSigner(await loadLicenseKeyPair({ dataDir }));
      expect(second.publicKeyRaw()).toEqual(first.publicKeyRaw());
      expect(second.publicKeyPem()).toBe(first.publicKeyPem());
      expect(await second.verify(await first.sign(claims))).toEqual({ v: 1, ...claims });

      const file = join(dataDir, LICENSE_KEY_FILE);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readFile(file, "utf8")).toStartWith(`${PEM_BEGIN}\n`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test("two instances starting together end up with one key", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "mkt-license-"));
    try {
      const pairs = await Promise.all([1, 2, 3].map(() => loadLicenseKeyPair({ dataDir })));
      const raws = pairs.map((pair) => createLicenseSigner(pair).publicKeyRaw());
      expect(raws[1]).toEqual(raws[0] as Uint8Array);
      expect(raws[2]).toEqual(raws[0] as Uint8Array);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test("a configured PKCS#8 PEM is used, and wins over dataDir", async () => {
    const generated = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const privateKeyPem = pkcs8Pem(await crypto.subtle.exportKey("pkcs8", generated.privateKey));
    const expected = new Uint8Array(await crypto.subtle.exportKey("raw", generated.publicKey));
    const dataDir = await mkdtemp(join(tmpdir(), "mkt-license-"));
    try {
      const signer = createLicenseSigner(await loadLicenseKeyPair({ privateKeyPem, dataDir }));
      expect(signer.publicKeyRaw()).toEqual(expected);
      const key = await signer.sign(claims);
      const [prefix, payload, signature] = key.split(".") as [string, string, string];
      const valid = await crypto.subtle.verify(
        { name: "Ed25519" },
        generated.publicKey,
        Buffer.from(signature, "base64url"),
        new TextEncoder().encode(`${prefix}.${payload}`),
      );
      expect(valid).toBeTrue();
      await expect(stat(join(dataDir, LICENSE_KEY_FILE))).rejects.toThrow();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test("a PEM that is not an Ed25519 PKCS#8 key is refused", async () => {
    await expect(loadLicenseKeyPair({ privateKeyPem: "not a key" })).rejects.toThrow(/PKCS#8/);
    const rsa = (await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    const privateKeyPem = pkcs8Pem(await crypto.subtle.exportKey("pkcs8", rsa.privateKey));
    await expect(loadLicenseKeyPair({ privateKeyPem })).rejects.toThrow(/Ed25519/);
  });

  test("any WebCrypto Ed25519 key pair can sign", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const signer = createLicenseSigner(pair);
    expect(signer.publicKeyRaw()).toEqual(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
    expect(await verifyOffline(await signer.sign(claims), signer.publicKeyPem())).toEqual({ v: 1, ...claims });
  });

  test("without a PEM or dataDir each load is a fresh key", async () => {
    const [a, b] = await Promise.all([newSigner(), newSigner()]);
    expect(a.publicKeyRaw()).not.toEqual(b.publicKeyRaw());
  });
});
