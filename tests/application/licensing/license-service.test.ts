import { describe, expect, test } from "bun:test";
import { makeLicenseService } from "../../../application/licensing/license-service.ts";
import type { StoredLicense } from "../../../application/licensing/ports.ts";
import { createInMemoryLicenseActivations } from "../../support/fakes/in-memory-license-activations.ts";
import {
  createInMemoryLicenseVerifier,
  FAKE_LICENSE_PUBLIC_KEY,
} from "../../support/fakes/in-memory-license-verifier.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");

function setup() {
  const store = createInMemoryLicenseActivations();
  const verifier = createInMemoryLicenseVerifier();
  let now = NOW;
  const service = makeLicenseService({ store, verifier, clock: () => now });

  /** A stored license and its genuine key. */
  function aLicense(overrides: Partial<Omit<StoredLicense, "activations">> = {}) {
    const license = {
      id: crypto.randomUUID(),
      product_id: "prod-ledger",
      product_name: "Ledger",
      license_type: "commercial",
      max_activations: 2,
      expires_at: new Date("2027-06-01T12:00:00.000Z"),
      status: "active" as const,
      replaced_key_valid_until: null,
      ...overrides,
    };
    const key = verifier.issue({
      lid: license.id,
      pid: license.product_id,
      cid: "cus-ada",
      typ: license.license_type,
      max: license.max_activations,
      exp: license.expires_at ? Math.floor(license.expires_at.getTime() / 1000) : null,
    });
    store.add(key, license);
    return { license, key };
  }

  return {
    service,
    store,
    verifier,
    aLicense,
    setNow: (date: Date) => {
      now = date;
    },
  };
}

describe("activate", () => {
  test("activates a new machine and counts it", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense();
    expect(await service.activate(key, "machine-1")).toEqual({
      activated: true,
      new_activation: true,
      activations: 1,
      max_activations: 2,
    });
    expect(store.fingerprints(license.id)).toEqual(["machine-1"]);
  });

  test("activating a machine again is fine and does not count it twice", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense();
    await service.activate(key, "machine-1");
    expect(await service.activate(key, "machine-1")).toMatchObject({ new_activation: false, activations: 1 });
    expect(store.fingerprints(license.id)).toEqual(["machine-1"]);
  });

  test("a machine past the maximum is ACTIVATION_LIMIT_REACHED; the machines already on it still work", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense({ max_activations: 2 });
    await service.activate(key, "machine-1");
    await service.activate(key, "machine-2");
    await expect(service.activate(key, "machine-3")).rejects.toMatchObject({ code: "ACTIVATION_LIMIT_REACHED" });
    expect(store.fingerprints(license.id)).toEqual(["machine-1", "machine-2"]);
    expect(await service.activate(key, "machine-2")).toMatchObject({ new_activation: false, activations: 2 });
  });

  test("a tampered or invented key is LICENSE_NOT_FOUND, and nothing is activated", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense();
    await expect(service.activate(`${key}x`, "machine-1")).rejects.toMatchObject({ code: "LICENSE_NOT_FOUND" });
    await expect(service.activate("MKT1.invented.key", "machine-1")).rejects.toMatchObject({
      code: "LICENSE_NOT_FOUND",
    });
    expect(store.fingerprints(license.id)).toEqual([]);
  });

  test("a genuine key with no license record is LICENSE_NOT_FOUND", async () => {
    const { service, verifier } = setup();
    const key = verifier.issue({ lid: "gone", pid: "p", cid: "c", typ: "commercial", max: 1, exp: null });
    await expect(service.activate(key, "machine-1")).rejects.toMatchObject({ code: "LICENSE_NOT_FOUND" });
  });

  test("a genuine key stored under another license's record is LICENSE_NOT_FOUND", async () => {
    const { service, store, verifier, aLicense } = setup();
    const { license } = aLicense();
    const key = verifier.issue({ lid: "another-license", pid: "p", cid: "c", typ: "commercial", max: 5, exp: null });
    store.add(key, license);
    await expect(service.activate(key, "machine-1")).rejects.toMatchObject({ code: "LICENSE_NOT_FOUND" });
    expect(store.fingerprints(license.id)).toEqual([]);
  });

  test.each([
    ["a revoked license", { status: "revoked" as const }, "LICENSE_REVOKED"],
    ["a suspended license", { status: "suspended" as const }, "LICENSE_SUSPENDED"],
    ["a license expiring this very moment", { expires_at: NOW }, "LICENSE_EXPIRED"],
  ])("%s cannot be activated, and no machine is added", async (_, overrides, code) => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense(overrides);
    await expect(service.activate(key, "machine-1")).rejects.toMatchObject({ code, category: "conflict" });
    expect(store.fingerprints(license.id)).toEqual([]);
  });

  test("a revoked license stays revoked whatever its dates", async () => {
    const { service, aLicense } = setup();
    const { key } = aLicense({ status: "revoked", expires_at: new Date("2020-01-01T00:00:00Z") });
    await expect(service.activate(key, "machine-1")).rejects.toMatchObject({ code: "LICENSE_REVOKED" });
  });

  test("a suspended license works again once it is active", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense({ status: "suspended" });
    await expect(service.activate(key, "machine-1")).rejects.toMatchObject({ code: "LICENSE_SUSPENDED" });
    store.change(license.id, { status: "active" });
    expect(await service.activate(key, "machine-1")).toMatchObject({ new_activation: true });
  });

  test("a perpetual license never expires", async () => {
    const { service, aLicense, setNow } = setup();
    const { key } = aLicense({ expires_at: null });
    setNow(new Date("2099-01-01T00:00:00Z"));
    expect(await service.activate(key, "machine-1")).toMatchObject({ activated: true });
  });
});

describe("validate", () => {
  test("describes a usable license", async () => {
    const { service, aLicense } = setup();
    const { license, key } = aLicense();
    await service.activate(key, "machine-1");
    expect(await service.validate(key)).toEqual({
      valid: true,
      reason: null,
      license_id: license.id,
      product_id: "prod-ledger",
      product_name: "Ledger",
      license_type: "commercial",
      expires_at: "2027-06-01T12:00:00.000Z",
      activations: 1,
      max_activations: 2,
    });
  });

  test("an unknown or tampered key is not valid and reveals nothing else", async () => {
    const { service, aLicense } = setup();
    const { key } = aLicense();
    expect(await service.validate(`${key}x`)).toEqual({ valid: false, reason: "unknown_or_tampered" });
    expect(await service.validate("")).toEqual({ valid: false, reason: "unknown_or_tampered" });
  });

  test("a license expires exactly at its expiry: valid one millisecond before, expired at it", async () => {
    const { service, aLicense, setNow } = setup();
    const { key } = aLicense({ expires_at: new Date("2026-07-01T00:00:00.000Z") });
    setNow(new Date("2026-06-30T23:59:59.999Z"));
    expect(await service.validate(key)).toMatchObject({ valid: true, reason: null });
    setNow(new Date("2026-07-01T00:00:00.000Z"));
    expect(await service.validate(key)).toMatchObject({ valid: false, reason: "expired" });
  });

  test.each([
    ["revoked", "revoked"],
    ["suspended", "suspended"],
  ] as const)("a %s license is not valid, for that reason, and still described", async (status, reason) => {
    const { service, aLicense } = setup();
    const { license, key } = aLicense({ status, expires_at: null });
    expect(await service.validate(key)).toMatchObject({
      valid: false,
      reason,
      license_id: license.id,
      expires_at: null,
      max_activations: 2,
    });
  });
});

test("publicKeyPem serves the verifier's public key", () => {
  expect(setup().service.publicKeyPem()).toBe(FAKE_LICENSE_PUBLIC_KEY);
});
