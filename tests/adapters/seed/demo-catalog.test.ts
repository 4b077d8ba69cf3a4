import { expect, test } from "bun:test";
import { seedDemoCatalog } from "../../../adapters/seed/demo-catalog.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call } from "../../support/http.ts";

const db = useTestDatabase();

test("an empty catalog gets one published product per delivery kind, the point-of-sale product first", async () => {
  const marketplace = createTestMarketplace(db.current.sql);
  const seeded = await seedDemoCatalog(marketplace.deps, { providerBaseUrl: "http://127.0.0.1:4010" });
  expect(seeded).toEqual(["tillpoint-pos", "ledgerly-dedicated", "shelfwise-self-hosted", "storefront-setup-service"]);

  const list = await call(marketplace.app, "GET", "/api/products");
  const byModel = Object.fromEntries(
    list.body.items.map((p: { delivery_model: string; slug: string }) => [p.delivery_model, p.slug]),
  );
  expect(byModel).toEqual({
    saas_multitenant: "tillpoint-pos",
    saas_singletenant: "ledgerly-dedicated",
    self_hosted_license: "shelfwise-self-hosted",
    managed_setup: "storefront-setup-service",
  });
  const variants = new Set(
    list.body.items.flatMap((p: { checkout_options: { variants: { variant: string }[] } }) =>
      p.checkout_options.variants.map((v) => v.variant),
    ),
  );
  expect([...variants].sort()).toEqual(["extended", "monthly", "regular", "yearly"]);
  for (const product of list.body.items) {
    expect(product.checkout_options.payment_gateways).toEqual(["gateway_a", "gateway_b"]);
  }

  const pos = await marketplace.deps.getAdminProduct(
    list.body.items.find((p: { slug: string }) => p.slug === "tillpoint-pos").id,
  );
  expect(pos.product.fulfillment_driver).toBe("multitenant_saas");
  expect(pos.product.fulfillment_config.base_url).toBe("http://127.0.0.1:4010");

  expect(await seedDemoCatalog(marketplace.deps, { providerBaseUrl: "http://127.0.0.1:4010" })).toEqual([]);
  await marketplace.close();
});
