import { describe, expect, test } from "bun:test";
import { createPostgresInstallationRepository } from "../../../adapters/postgres/installation-repository.ts";
import type { InstallationDraft } from "../../../application/provisioning/ports.ts";
import { aFulfillmentContext, aSingletenantProduct } from "../../support/builders/fulfillment.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const installations = () => createPostgresInstallationRepository(db.current.sql);

async function aDraft(): Promise<InstallationDraft> {
  const { record } = await aFulfillmentContext(db.current.sql, { product: aSingletenantProduct() });
  return {
    fulfillment_record_id: record.id,
    customer_id: record.customer_id,
    product_id: record.product_id,
    server_profile: "vm-small",
    resource_limits_profile: "limits-standard",
    domain_strategy: "customer_domain",
    domain: null,
    status: "awaiting_domain",
  };
}

describe("postgres installation repository", () => {
  test("upsert keeps one installation per record and updates it while it is being set up", async () => {
    const draft = await aDraft();
    const first = await installations().upsert(draft);
    const second = await installations().upsert({ ...draft, domain: "shop.acme.com", status: "provisioning" });
    expect(second).toMatchObject({ id: first.id, domain: "shop.acme.com", status: "provisioning" });
    expect(await installations().findForRecord(draft.fulfillment_record_id)).toEqual(second);
  });

  test("an installation past set-up is left alone by upsert", async () => {
    const draft = await aDraft();
    const created = await installations().upsert({ ...draft, domain: "kept.acme.com", status: "provisioning" });
    await installations().update(created.id, ["provisioning"], { status: "active", url: "https://kept.acme.com" });
    const again = await installations().upsert({ ...draft, domain: "other.acme.com", status: "provisioning" });
    expect(again).toMatchObject({
      id: created.id,
      status: "active",
      domain: "kept.acme.com",
      url: "https://kept.acme.com",
    });
  });

  test("update moves only from the expected states and keeps the url unless given", async () => {
    const draft = await aDraft();
    const created = await installations().upsert({ ...draft, domain: "moved.acme.com", status: "provisioning" });
    expect(await installations().update(created.id, ["active"], { status: "suspended" })).toBeUndefined();
    await installations().update(created.id, ["provisioning"], { status: "active", url: "https://moved.acme.com" });
    const suspended = await installations().update(created.id, ["active"], { status: "suspended" });
    expect(suspended).toMatchObject({ status: "suspended", url: "https://moved.acme.com" });
  });

  test("a missing installation is undefined", async () => {
    expect(await installations().findForRecord(crypto.randomUUID())).toBeUndefined();
  });
});
