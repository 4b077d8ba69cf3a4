import { aLicenseProduct } from "./builders/products.ts";
import type { TestDatabase } from "./database.ts";
import { buyAndPay, createProduct, type E2e, registerCustomer } from "./e2e.ts";
import { licenseOf } from "./subscriptions.ts";

/**
 * A self-hosted product bought and paid through gateway B, its license delivered: the buyer (a new
 * customer unless given), the key and the license's id. `config` is merged into the product's
 * `license_download` config (one machine per seat by default).
 */
export async function aBoughtLicense(
  e2e: E2e,
  db: { readonly current: TestDatabase },
  options: { config?: object; product?: object; quantity?: number; buyer?: { token: string } } = {},
) {
  const product = await createProduct(
    e2e,
    aLicenseProduct({
      ...options.product,
      fulfillment_config: {
        license_type: "commercial",
        artifact_source: "https://downloads.example.com/app",
        max_activations: 1,
        ...options.config,
      },
    }),
  );
  const customer = options.buyer ?? (await registerCustomer(e2e));
  const item = { product_id: product.id, variant: "regular", quantity: options.quantity ?? 1 };
  const { orderId } = await buyAndPay(e2e, customer, [item], "gateway_b");
  const { key } = await licenseOf(db, orderId);
  const [license] = await db.current.sql<{ id: string }[]>`select id from licenses where license_key = ${key}`;
  if (!license) throw new Error(`order ${orderId} has no license`);
  return { customer, key, licenseId: license.id, productId: product.id, orderId };
}
