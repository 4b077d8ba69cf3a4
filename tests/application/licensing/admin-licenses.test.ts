import { describe, expect, test } from "bun:test";
import { makeAdminLicenses } from "../../../application/licensing/admin-licenses.ts";
import type { AdminLicense } from "../../../application/licensing/admin-ports.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const ADMIN = "a-1";

function setup(overrides: Partial<AdminLicense> = {}) {
  const uow = createInMemoryUnitOfWork();
  const license: AdminLicense = {
    id: "l-1",
    customer_id: "cus-ada",
    customer_email: "ada@example.com",
    product_id: "p-1",
    product_name: "Ledger",
    order_id: "o-1",
    license_type: "regular",
    license_key: "MKT1.first.key",
    status: "active",
    held: false,
    max_activations: 3,
    floating: false,
    heartbeat_seconds: null,
    offline_checkout_max_days: 0,
    activations: 0,
    reissues: 0,
    expires_at: new Date("2026-07-01T00:00:00.000Z"),
    created_at: NOW,
    ...overrides,
  };
  uow.licenses.add(license, [
    {
      id: "m-1",
      fingerprint: "fp-1",
      name: null,
      platform: null,
      hostname: null,
      activated_at: NOW,
      last_seen_at: NOW,
      checked_out_until: null,
    },
  ]);
  const signed: object[] = [];
  const admin = makeAdminLicenses({
    reader: uow.licenses.reader,
    uow,
    signer: {
      sign: async (claims) => {
        signed.push(claims);
        return "MKT1.second.key";
      },
    },
    clock: () => NOW,
    log: createRecordingLog(),
  });
  return { uow, admin, signed };
}

describe("an admin's license actions", () => {
  test("suspend holds the license, audits it, and tells the customer and the shop's systems", async () => {
    const { uow, admin } = setup();
    const details = await admin.suspendLicense("l-1", ADMIN);
    expect(details.license).toMatchObject({ status: "suspended", held: true });
    expect(details.history).toEqual([expect.objectContaining({ kind: "suspended", actor: "admin:a-1" })]);
    expect(uow.audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "license.suspend",
        target_type: "license",
        target_id: "l-1",
        summary: { status: { from: "active", to: "suspended" } },
      },
    ]);
    expect(uow.outbox.all().map((m) => [m.kind, m.payload.license_id])).toEqual([["license.suspended", "l-1"]]);
    expect(uow.events.ofType("license.suspended")).toEqual([
      {
        type: "license.suspended",
        data: expect.objectContaining({ license_id: "l-1", status: "suspended", customer_id: "cus-ada" }),
      },
    ]);
    expect(JSON.stringify(uow.events.all())).not.toContain("MKT1");
    await expect(admin.suspendLicense("l-1", ADMIN)).rejects.toMatchObject({ code: "LICENSE_ALREADY_SUSPENDED" });
    expect(uow.outbox.all()).toHaveLength(1);
  });

  test("reinstate lifts a suspension; an active license has nothing to reinstate and nothing is written", async () => {
    const { uow, admin } = setup();
    await expect(admin.reinstateLicense("l-1", ADMIN)).rejects.toMatchObject({ code: "LICENSE_NOT_SUSPENDED" });
    expect(uow.audit.all()).toEqual([]);
    await admin.suspendLicense("l-1", ADMIN);
    const details = await admin.reinstateLicense("l-1", ADMIN);
    expect(details.license).toMatchObject({ status: "active", held: false });
    expect(uow.events.all().map((e) => e.type)).toEqual(["license.suspended", "license.reinstated"]);
  });

  test("a revoked license is neither suspended, reinstated, extended nor reissued", async () => {
    const { uow, admin } = setup({ status: "revoked" });
    for (const act of [
      () => admin.suspendLicense("l-1", ADMIN),
      () => admin.reinstateLicense("l-1", ADMIN),
      () => admin.extendLicense("l-1", 30, ADMIN),
      () => admin.reissueLicense("l-1", ADMIN),
    ]) {
      await expect(act()).rejects.toMatchObject({ code: "LICENSE_REVOKED" });
    }
    expect(uow.audit.all()).toEqual([]);
    expect(uow.outbox.all()).toEqual([]);
  });

  test("extend counts from the expiry, or from now once it passed; a perpetual license has none to extend", async () => {
    const { admin } = setup();
    expect((await admin.extendLicense("l-1", 10, ADMIN)).license.expires_at).toEqual(
      new Date("2026-07-11T00:00:00.000Z"),
    );
    const lapsed = setup({ expires_at: new Date("2026-01-01T00:00:00.000Z") });
    expect((await lapsed.admin.extendLicense("l-1", 1, ADMIN)).license.expires_at).toEqual(
      new Date("2026-06-02T12:00:00.000Z"),
    );
    const perpetual = setup({ expires_at: null });
    await expect(perpetual.admin.extendLicense("l-1", 1, ADMIN)).rejects.toMatchObject({ code: "LICENSE_PERPETUAL" });
  });

  test("reissue signs the same claims under a new key and tells the customer", async () => {
    const { uow, admin, signed } = setup();
    const details = await admin.reissueLicense("l-1", ADMIN);
    expect(details.license.license_key).toBe("MKT1.second.key");
    expect(uow.licenses.replacedKey("l-1")).toBe("MKT1.first.key");
    expect(signed).toEqual([
      {
        lid: "l-1",
        pid: "p-1",
        cid: "cus-ada",
        typ: "regular",
        max: 3,
        iat: NOW.getTime() / 1000,
        exp: Date.parse("2026-07-01T00:00:00.000Z") / 1000,
        rev: 1,
      },
    ]);
    expect(uow.outbox.all().map((m) => m.kind)).toEqual(["license.reissued"]);
  });

  test("reset frees every machine and is audited with how many", async () => {
    const { uow, admin } = setup();
    const details = await admin.resetLicenseMachines("l-1", ADMIN);
    expect(details.machines).toEqual([]);
    expect(uow.audit.all()[0]?.summary).toMatchObject({ machines_freed: 1 });
    expect(uow.outbox.all()).toEqual([]);
  });

  test("an unknown license is LICENSE_NOT_FOUND", async () => {
    const { admin } = setup();
    await expect(admin.getAdminLicense("nope")).rejects.toMatchObject({ code: "LICENSE_NOT_FOUND" });
    await expect(admin.suspendLicense("nope", ADMIN)).rejects.toMatchObject({ code: "LICENSE_NOT_FOUND" });
  });
});
