import { calculateCheckout } from "../../domain/checkout/checkout.ts";
import { LicenseUpgradeRefused, OwnLicenseNotFound } from "../../domain/checkout/errors.ts";
import { selectGateway } from "../../domain/checkout/gateway-selection.ts";
import { undiscounted } from "../../domain/discounts/apply.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { ProductRepository } from "../catalog/ports.ts";
import type { VariantPrices } from "../payments/ports.ts";
import type { Mutex } from "../shared/ports.ts";
import type { CalculatedCheckout } from "./calculate-checkout.ts";
import type { CheckoutResponse, makeOpenCheckout } from "./open-checkout.ts";
import type { CustomerDirectory, LicenseUpgrades, UpgradableLicense } from "./ports.ts";

/** The license types a one-time license moves up to, from what it was bought as. */
const UPGRADES: Readonly<Record<string, "extended">> = { regular: "extended" };

const refuse = (message: string): never => {
  throw new ValidationFailed([{ path: "/variant", code: "UPGRADE_NOT_OFFERED", message }]);
};

/**
 * A customer moves a one-time license up (regular → extended) by paying the difference between
 * the two current prices, for each seat. The upgrade is an order of its own, linked to the
 * original one (its metadata's `upgrade_of`) and to the license; paid, it is delivered by
 * re-signing the same license with the new type (license-download-adapter.ts).
 */
export function makeLicenseUpgrade(deps: {
  readonly licenses: LicenseUpgrades;
  readonly prices: VariantPrices;
  readonly products: Pick<ProductRepository, "findWithMappings">;
  readonly currency: string;
  readonly customers: CustomerDirectory;
  readonly open: ReturnType<typeof makeOpenCheckout>;
  /** One upgrade of a license opens at a time, across instances. */
  readonly mutex: Mutex;
}) {
  async function upgradable(customerId: string, licenseId: string, variant: string): Promise<UpgradableLicense> {
    const license = await deps.licenses.find(licenseId);
    // Another customer's license is simply not found: its existence is not theirs to learn.
    if (!license || license.customer_id !== customerId) throw new OwnLicenseNotFound();
    if (license.payment_type === "subscription") throw new LicenseUpgradeRefused("subscription");
    if (license.license_type === variant) throw new LicenseUpgradeRefused("already_upgraded");
    if (license.status !== "active") throw new LicenseUpgradeRefused(license.status);
    if (UPGRADES[license.license_type] !== variant) {
      refuse(`A ${license.license_type} license cannot be upgraded to ${variant}.`);
    }
    return license;
  }

  /** The extended item of the checkout, at the difference between the two prices now. */
  async function priced(license: UpgradableLicense, variant: "extended"): Promise<CalculatedCheckout> {
    const from = await deps.prices.price(license.product_id, license.license_type as "regular");
    const to = await deps.prices.price(license.product_id, variant);
    if (to === undefined) refuse(`The product is not sold as ${variant} at the moment.`);
    if (from === undefined)
      refuse(`The product is no longer sold as ${license.license_type}, so no difference can be priced.`);
    const difference = (to as number) - (from as number);
    if (difference <= 0) refuse(`The ${variant} license costs no more than the ${license.license_type} one.`);
    const catalog = await deps.products.findWithMappings([license.product_id]);
    const totals = calculateCheckout(
      [{ product_id: license.product_id, variant, quantity: license.quantity }],
      catalog,
      deps.currency,
    );
    const amount = difference * license.quantity;
    const product = catalog.get(license.product_id)?.product;
    return {
      ...undiscounted(totals),
      items: totals.items.map((item) => ({ ...item, unit_price: difference, amount, due_today: amount, discount: 0 })),
      subtotal: amount,
      total: amount,
      due_today: amount,
      payment_gateway: selectGateway(product ? [product] : [], license.payment_gateway),
    };
  }

  return async function upgradeLicense(
    customerId: string,
    licenseId: string,
    variant: "extended",
  ): Promise<CheckoutResponse> {
    const customer = await deps.customers.find(customerId);
    if (!customer) throw new OwnLicenseNotFound();
    // Checked and opened under the license's lock: two requests cannot both open an upgrade.
    return deps.mutex.withLock(`license-upgrade:${licenseId}`, async () => {
      const license = await upgradable(customerId, licenseId, variant);
      if (await deps.licenses.pending(license.id)) throw new LicenseUpgradeRefused("pending");
      return deps.open(customer, await priced(license, variant), false, {
        upgrade_of: { order_id: license.order_id, license_id: license.id },
        record: async ({ items }) => {
          for (const item of items) await deps.licenses.record(item.id, license.id, license.license_type, variant);
        },
      });
    });
  };
}
