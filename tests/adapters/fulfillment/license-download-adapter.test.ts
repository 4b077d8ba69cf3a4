import { beforeAll, describe, expect, test } from "bun:test";
import { createLicenseDownloadAdapter } from "../../../adapters/fulfillment/license-download-adapter.ts";
import {
  createLicenseSigner,
  type LicenseSigner,
  loadLicenseKeyPair,
} from "../../../adapters/licensing/license-signer.ts";
import { createPostgresLicenseWriter } from "../../../adapters/postgres/license-writer.ts";
import type { FulfillmentContext } from "../../../application/fulfillment/ports.ts";
import { aFulfillmentContext, type ItemOverrides } from "../../support/builders/fulfillment.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const now = new Date("2026-01-15T09:30:00.000Z");
let signer: LicenseSigner;
beforeAll(async () => {
  signer = createLicenseSigner(await loadLicenseKeyPair({}));
});
const adapter = () =>
  createLicenseDownloadAdapter({
    licenses: createPostgresLicenseWriter(db.current.sql),
    signer,
    clock: () => now,
    upgradeGraceHours: 72,
  });

const aContext = (item: ItemOverrides = {}) =>
  aFulfillmentContext(db.current.sql, {
    product: aLicenseProduct({ default_release_version: "3.2.1", price_extended: 14900 }),
    item,
  });

async function rowsOf(context: FulfillmentContext) {
  const sql = db.current.sql;
  const licenseRows = await sql`
    select id, license_key, license_type, max_activations, expires_at, status from licenses
    where fulfillment_record_id = ${context.record.id}`;
  const entitlementRows = await sql`
    select id, license_id, artifact_source, version, revoked_at from download_entitlements
    where fulfillment_record_id = ${context.record.id}`;
  return { licenseRows, entitlementRows };
}

describe("license download adapter", () => {
  test("fulfill issues a signed license and a download entitlement", async () => {
    const context = await aContext({ variant: "extended", quantity: 2 });
    const outcome = await adapter().fulfill(context);
    const { licenseRows, entitlementRows } = await rowsOf(context);
    const [license] = licenseRows;
    const [entitlement] = entitlementRows;
    expect(outcome).toEqual({
      status: "active",
      external_reference_id: license?.id,
      external_status: "active",
      snapshot: { license_id: license?.id, entitlement_id: entitlement?.id },
    });
    expect(license).toMatchObject({ license_type: "extended", max_activations: 6, expires_at: null, status: "active" });
    expect(entitlement).toMatchObject({
      license_id: license?.id,
      artifact_source: "https://downloads.example.com/app",
      version: "3.2.1",
      revoked_at: null,
    });
    expect(await signer.verify(license?.license_key)).toEqual({
      v: 1,
      lid: license?.id,
      pid: context.product.id,
      cid: context.customer.id,
      typ: "extended",
      max: 6,
      iat: Math.floor(now.getTime() / 1000),
      exp: null,
    });
  });

  test("the product's license type applies when the purchased variant names none", async () => {
    const context = await aContext({ license_type: null });
    await adapter().fulfill(context);
    const [license] = (await rowsOf(context)).licenseRows;
    expect(license?.license_type).toBe("commercial");
    expect((await signer.verify(license?.license_key))?.typ).toBe("commercial");
  });

  test("a subscription's key expires with the current period", async () => {
    const periodEnd = new Date("2026-02-15T09:30:00.250Z");
    const context = await aFulfillmentContext(db.current.sql, {
      product: aLicenseProduct({ is_recurring: true, price_monthly: 900 }),
      periodEnd,
    });
    await adapter().fulfill(context);
    const [license] = (await rowsOf(context)).licenseRows;
    const claims = await signer.verify(license?.license_key);
    expect(claims?.exp).toBe(Math.floor(periodEnd.getTime() / 1000));
    expect(license?.expires_at).toEqual(new Date("2026-02-15T09:30:00.000Z"));
  });

  test("fulfilling again, even concurrently, returns the same license and grants nothing twice", async () => {
    const context = await aContext();
    const first = await adapter().fulfill(context);
    const again = await Promise.all([adapter().fulfill(context), adapter().fulfill(context)]);
    expect(again).toEqual([first, first]);
    const { licenseRows, entitlementRows } = await rowsOf(context);
    expect([licenseRows.length, entitlementRows.length]).toEqual([1, 1]);

    const fresh = await aContext();
    const racing = await Promise.all([1, 2, 3].map(() => adapter().fulfill(fresh)));
    expect(new Set(racing.map((o) => (o.status === "active" ? o.external_reference_id : "")))).toHaveProperty(
      "size",
      1,
    );
    const raced = await rowsOf(fresh);
    expect([raced.licenseRows.length, raced.entitlementRows.length]).toEqual([1, 1]);
  });

  test("suspend and resume move the license's status; cancel revokes license and entitlement for good", async () => {
    const context = await aContext();
    await adapter().fulfill(context);
    expect(await adapter().syncStatus(context)).toEqual({ external_status: "active" });
    expect(await adapter().suspend(context, "lapsed")).toEqual({ external_status: "suspended" });
    expect(await adapter().suspend(context, "again")).toEqual({ external_status: "suspended" });
    expect((await rowsOf(context)).licenseRows[0]?.status).toBe("suspended");
    expect(await adapter().resume?.(context)).toEqual({ external_status: "active" });
    await adapter().suspend(context, "disputed");

    expect(await adapter().cancel(context, "refunded")).toEqual({ external_status: "revoked" });
    const { licenseRows, entitlementRows } = await rowsOf(context);
    expect(licenseRows[0]?.status).toBe("revoked");
    expect(entitlementRows[0]?.revoked_at).toBeInstanceOf(Date);
    expect(await adapter().syncStatus(context)).toEqual({ external_status: "revoked" });
    expect(await adapter().cancel(context, "again")).toEqual({ external_status: "revoked" });
    expect(await adapter().resume?.(context)).toEqual({ external_status: "revoked" });
    expect(await adapter().renew?.(context)).toEqual({ external_status: "revoked" });
  });

  test("a renewal moves a subscription license's expiry to the new period end and lifts a suspension", async () => {
    const context = await aFulfillmentContext(db.current.sql, {
      product: aLicenseProduct({ is_recurring: true, price_monthly: 900 }),
      periodEnd: new Date("2026-02-15T09:30:00.000Z"),
    });
    await adapter().fulfill(context);
    await adapter().suspend(context, "lapsed");
    const renewed = {
      ...context,
      subscription: context.subscription && {
        ...context.subscription,
        current_period_end: new Date("2026-03-15T09:30:00.750Z"),
      },
    };
    expect(await adapter().renew?.(renewed)).toEqual({ external_status: "active" });
    expect((await rowsOf(context)).licenseRows[0]).toMatchObject({
      status: "active",
      expires_at: new Date("2026-03-15T09:30:00.000Z"),
    });
    // A late repeat of an older renewal never shortens it.
    expect(await adapter().renew?.(context)).toEqual({ external_status: "active" });
    expect((await rowsOf(context)).licenseRows[0]?.expires_at).toEqual(new Date("2026-03-15T09:30:00.000Z"));
  });

  test("cancel before anything was issued has nothing to revoke", async () => {
    const context = await aContext();
    expect(await adapter().cancel(context, "refunded")).toEqual({ external_status: "revoked" });
    expect((await rowsOf(context)).licenseRows).toHaveLength(0);
  });
});
