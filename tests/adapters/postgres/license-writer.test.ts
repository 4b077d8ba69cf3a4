import { describe, expect, test } from "bun:test";
import { createPostgresLicenseWriter } from "../../../adapters/postgres/license-writer.ts";
import { aFulfillmentContext } from "../../support/builders/fulfillment.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const licenses = () => createPostgresLicenseWriter(db.current.sql);

async function anIssue(key: string) {
  const { record } = await aFulfillmentContext(db.current.sql, { product: aLicenseProduct() });
  return {
    license: {
      id: crypto.randomUUID(),
      fulfillment_record_id: record.id,
      customer_id: record.customer_id,
      product_id: record.product_id,
      license_type: "regular",
      license_key: key,
      max_activations: 3,
      floating: true,
      heartbeat_seconds: 600,
      offline_checkout_max_days: 30,
      expires_at: null,
    },
    entitlement: { artifact_source: "https://downloads.example.com/app", version: "1.0.0" },
  };
}

describe("postgres license repository", () => {
  test("issue stores license and entitlement together; a second issue for the record returns the first", async () => {
    const input = await anIssue(`key-${crypto.randomUUID()}`);
    const issued = await licenses().issue(input);
    expect(issued.license).toMatchObject({ ...input.license, status: "active" });
    expect(issued.entitlement).toMatchObject({ license_id: input.license.id, ...input.entitlement, revoked_at: null });

    const again = await licenses().issue({
      ...input,
      license: { ...input.license, id: crypto.randomUUID(), license_key: `key-${crypto.randomUUID()}` },
    });
    expect(again).toEqual(issued);
    expect(await licenses().findForRecord(input.license.fulfillment_record_id)).toEqual(issued);
  });

  test("revokeForRecord revokes both, once", async () => {
    const input = await anIssue(`key-${crypto.randomUUID()}`);
    await licenses().issue(input);
    const revoked = await licenses().revokeForRecord(input.license.fulfillment_record_id);
    expect(revoked?.license.status).toBe("revoked");
    const revokedAt = revoked?.entitlement.revoked_at;
    expect(revokedAt).toBeInstanceOf(Date);
    const again = await licenses().revokeForRecord(input.license.fulfillment_record_id);
    expect(again?.entitlement.revoked_at).toEqual(revokedAt ?? null);
    expect(await licenses().revokeForRecord(crypto.randomUUID())).toBeUndefined();
  });

  test("the billing moves an unheld license, but not one an admin holds; each move goes into its history", async () => {
    const input = await anIssue(`key-${crypto.randomUUID()}`);
    const record = input.license.fulfillment_record_id;
    await licenses().issue(input);
    await licenses().changeForRecord(record, { from: "active", to: "suspended" });
    expect((await licenses().changeForRecord(record, { from: "suspended", to: "active" }))?.license.status).toBe(
      "active",
    );
    await db.current.sql`update licenses set status = 'suspended', held = true where id = ${input.license.id}`;
    const held = await licenses().changeForRecord(record, {
      from: "suspended",
      to: "active",
      expiresAt: new Date("2099-01-01T00:00:00Z"),
    });
    expect(held?.license.status).toBe("suspended");
    const history = await db.current.sql<{ kind: string; actor: string }[]>`
      select kind, actor from license_events where license_id = ${input.license.id} order by id`;
    expect(history.map((e) => e.kind)).toEqual(["issued", "suspended", "reinstated"]);
    expect(new Set(history.map((e) => e.actor))).toEqual(new Set(["system"]));
  });
});
