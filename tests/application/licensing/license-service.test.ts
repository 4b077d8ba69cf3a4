import { describe, expect, test } from "bun:test";
import { makeLicenseService } from "../../../application/licensing/license-service.ts";
import type { LicenseFileClaims, StoredLicense } from "../../../application/licensing/ports.ts";
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
  const signed: LicenseFileClaims[] = [];
  const files = {
    signFile: async (claims: LicenseFileClaims) => {
      signed.push(claims);
      return `file:${JSON.stringify(claims)}`;
    },
  };
  const service = makeLicenseService({ store, verifier, files, clock: () => now });

  /** A stored license and its genuine key. */
  function aLicense(overrides: Partial<Omit<StoredLicense, "activations">> = {}) {
    const license = {
      id: crypto.randomUUID(),
      product_id: "prod-ledger",
      product_name: "Ledger",
      license_type: "commercial",
      max_activations: 2,
      floating: false,
      heartbeat_seconds: null as number | null,
      offline_checkout_max_days: 0,
      entitlements: ["download:1.0.0"],
      expires_at: new Date("2027-06-01T12:00:00.000Z") as Date | null,
      status: "active" as StoredLicense["status"],
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
    signed,
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
      next_heartbeat_before: null,
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
      code: null,
      reason: null,
      license_id: license.id,
      product_id: "prod-ledger",
      product_name: "Ledger",
      license_type: "commercial",
      expires_at: "2027-06-01T12:00:00.000Z",
      activations: 1,
      max_activations: 2,
      floating: false,
    });
  });

  test("an unknown or tampered key is not valid and reveals nothing else", async () => {
    const { service, aLicense } = setup();
    const { key } = aLicense();
    const unknown = { valid: false, code: "LICENSE_NOT_FOUND", reason: "unknown_or_tampered" } as const;
    expect(await service.validate(`${key}x`)).toEqual(unknown);
    expect(await service.validate("")).toEqual(unknown);
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

describe("floating licenses and heartbeats", () => {
  const floating = { floating: true, heartbeat_seconds: 600, max_activations: 2 };
  const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

  test("a heartbeat keeps the seat and says when the next one is due", async () => {
    const { service, aLicense, setNow } = setup();
    const { key } = aLicense(floating);
    expect(await service.activate(key, "m1")).toMatchObject({ next_heartbeat_before: later(600).toISOString() });
    setNow(later(500));
    expect(await service.heartbeat(key, "m1")).toEqual({
      machine_id: "machine-m1",
      next_heartbeat_before: later(1100).toISOString(),
    });
  });

  test("a full pool refuses with retry_after: the seconds until the oldest holder's heartbeat is due", async () => {
    const { service, aLicense, setNow } = setup();
    const { key } = aLicense(floating);
    await service.activate(key, "m1");
    setNow(later(100));
    await service.activate(key, "m2");
    setNow(later(200));
    await expect(service.activate(key, "m3")).rejects.toMatchObject({
      code: "ACTIVATION_LIMIT_REACHED",
      extensions: { retry_after: 400 },
    });
  });

  test("a machine past its heartbeat gives its seat to the next machine, and its own heartbeat is HEARTBEAT_MISSED", async () => {
    const { service, store, aLicense, setNow } = setup();
    const { license, key } = aLicense(floating);
    await service.activate(key, "m1");
    await service.activate(key, "m2");
    setNow(later(300));
    await service.heartbeat(key, "m2");
    setNow(later(601));
    expect(await service.validate(key, "m1")).toMatchObject({ valid: false, code: "HEARTBEAT_MISSED" });
    await expect(service.heartbeat(key, "m1")).rejects.toMatchObject({ code: "HEARTBEAT_MISSED" });
    expect(store.fingerprints(license.id)).toEqual(["m2"]);
    expect(await service.activate(key, "m3")).toMatchObject({ new_activation: true, activations: 2 });
  });

  test("the tick releases the machines that stopped checking in, and only those", async () => {
    const { service, store, aLicense, setNow } = setup();
    const { license, key } = aLicense(floating);
    await service.activate(key, "m1");
    await service.activate(key, "m2");
    setNow(later(550));
    await service.heartbeat(key, "m2");
    expect(await service.releaseIdleMachines(later(600))).toBe(0);
    expect(await service.releaseIdleMachines(later(601))).toBe(1);
    expect(store.fingerprints(license.id)).toEqual(["m2"]);
    expect(store.events().filter((e) => e.kind === "released")).toEqual([
      { license_id: license.id, kind: "released", actor: "system", fingerprint: "m1" },
    ]);
  });

  test("a license that is not floating keeps its machines whatever their heartbeats", async () => {
    const { service, store, aLicense, setNow } = setup();
    const { license, key } = aLicense({ heartbeat_seconds: 600 });
    await service.activate(key, "m1");
    setNow(later(10_000));
    expect(await service.releaseIdleMachines(later(10_000))).toBe(0);
    expect(await service.validate(key, "m1")).toMatchObject({ valid: false, code: "HEARTBEAT_MISSED" });
    expect(await service.heartbeat(key, "m1")).toMatchObject({ next_heartbeat_before: later(10_600).toISOString() });
    expect(await service.validate(key, "m1")).toMatchObject({ valid: true, code: null });
    expect(store.fingerprints(license.id)).toEqual(["m1"]);
  });

  test("a heartbeat from a machine never activated is FINGERPRINT_NOT_ACTIVATED", async () => {
    const { service, aLicense } = setup();
    const { key } = aLicense(floating);
    await expect(service.heartbeat(key, "stranger")).rejects.toMatchObject({ code: "FINGERPRINT_NOT_ACTIVATED" });
    expect(await service.validate(key, "stranger")).toMatchObject({ valid: false, code: "FINGERPRINT_NOT_ACTIVATED" });
  });
});

describe("validation codes", () => {
  test.each([
    [{ status: "revoked" as const }, "LICENSE_REVOKED"],
    [{ status: "suspended" as const }, "LICENSE_SUSPENDED"],
    [{ expires_at: NOW }, "LICENSE_EXPIRED"],
  ])("%o answers %s, whatever the machine", async (overrides, code) => {
    const { service, aLicense } = setup();
    const { key } = aLicense(overrides);
    expect(await service.validate(key)).toMatchObject({ valid: false, code });
    expect(await service.validate(key, "any")).toMatchObject({ valid: false, code });
  });

  test("a key a reissue took away between the lookup and the lock does not activate", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense();
    const lookup = store.findByKey.bind(store);
    store.findByKey = async (k) => {
      const found = await lookup(k);
      store.forget(key);
      return found;
    };
    await expect(service.activate(key, "m1")).rejects.toMatchObject({ code: "LICENSE_REPLACED" });
    expect(store.fingerprints(license.id)).toEqual([]);
  });
});

describe("offline license files", () => {
  const offline = { offline_checkout_max_days: 30 };

  test("a file is bound to the machine, states the license, and lasts ttl_days", async () => {
    const { service, aLicense, signed, store } = setup();
    const { license, key } = aLicense(offline);
    await service.activate(key, "m1");
    const { license_file, expires_at } = await service.checkout(key, "m1", 7);
    expect(expires_at).toBe("2026-06-08T12:00:00.000Z");
    expect(signed).toEqual([
      {
        license_id: license.id,
        product_id: "prod-ledger",
        product_name: "Ledger",
        license_type: "commercial",
        entitlements: ["download:1.0.0"],
        fingerprint: "m1",
        issued_at: NOW.toISOString(),
        expires_at,
      },
    ]);
    expect(license_file).toStartWith("file:");
    expect(store.events().at(-1)).toMatchObject({ kind: "checked_out", fingerprint: "m1" });
  });

  test("a file never outlives the license", async () => {
    const { service, aLicense } = setup();
    const { key } = aLicense({ ...offline, expires_at: new Date("2026-06-03T00:00:00.000Z") });
    await service.activate(key, "m1");
    expect((await service.checkout(key, "m1", 30)).expires_at).toBe("2026-06-03T00:00:00.000Z");
  });

  test("past the policy's days is 422 at /ttl_days; a policy of 0 days refuses; an unknown machine refuses", async () => {
    const { service, aLicense } = setup();
    const { key } = aLicense(offline);
    await service.activate(key, "m1");
    await expect(service.checkout(key, "m1", 31)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "/ttl_days" }],
    });
    await expect(service.checkout(key, "m2", 1)).rejects.toMatchObject({ code: "FINGERPRINT_NOT_ACTIVATED" });
    const { key: online } = aLicense();
    await service.activate(online, "m1");
    await expect(service.checkout(online, "m1", 1)).rejects.toMatchObject({ code: "OFFLINE_CHECKOUT_DISABLED" });
  });

  test("a suspended license cannot check out", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense(offline);
    await service.activate(key, "m1");
    store.change(license.id, { status: "suspended" });
    await expect(service.checkout(key, "m1", 1)).rejects.toMatchObject({ code: "LICENSE_SUSPENDED" });
  });
});

describe("a machine holding an offline license file", () => {
  const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
  const policy = { floating: true, heartbeat_seconds: 600, max_activations: 1, offline_checkout_max_days: 7 };

  test("keeps its seat until the file expires: no tick, deactivation or silence frees it", async () => {
    const { service, store, aLicense, setNow } = setup();
    const { license, key } = aLicense(policy);
    await service.activate(key, "m1");
    await service.checkout(key, "m1", 2);
    setNow(later(86_400));
    expect(await service.releaseIdleMachines(later(86_400))).toBe(0);
    expect(await service.validate(key, "m1")).toMatchObject({ valid: true });
    await expect(service.deactivate(key, "m1")).rejects.toMatchObject({ code: "MACHINE_CHECKED_OUT" });
    await expect(service.releaseMachine("owner", license.id, "machine-m1")).rejects.toMatchObject({
      code: "MACHINE_CHECKED_OUT",
    });
    await expect(service.activate(key, "m2")).rejects.toMatchObject({
      code: "ACTIVATION_LIMIT_REACHED",
      extensions: { retry_after: 86_400 },
    });
    setNow(later(2 * 86_400 + 1));
    expect(await service.releaseIdleMachines(later(2 * 86_400 + 1))).toBe(1);
    expect(await service.activate(key, "m2")).toMatchObject({ new_activation: true });
    expect(store.fingerprints(license.id)).toEqual(["m2"]);
  });

  test("a key replaced past its grace frees no seat", async () => {
    const { service, aLicense, setNow } = setup();
    const { key } = aLicense({ replaced_key_valid_until: NOW });
    setNow(later(1));
    await expect(service.deactivate(key, "m1")).rejects.toMatchObject({ code: "LICENSE_REPLACED" });
  });

  test("a license suspended between the lookup and the lock does not activate", async () => {
    const { service, store, aLicense } = setup();
    const { license, key } = aLicense();
    const lookup = store.findByKey.bind(store);
    store.findByKey = async (k) => {
      const found = await lookup(k);
      store.change(license.id, { status: "suspended" });
      return found;
    };
    await expect(service.activate(key, "m1")).rejects.toMatchObject({ code: "LICENSE_SUSPENDED" });
    expect(store.fingerprints(license.id)).toEqual([]);
  });
});
