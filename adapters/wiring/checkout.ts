import { makeCalculateCheckout } from "../../application/checkout/calculate-checkout.ts";
import { makeCreateCheckout } from "../../application/checkout/create-checkout.ts";
import { makeExpireGatewayCheckout } from "../../application/checkout/expire-unpaid-orders.ts";
import { expireCheckoutJob } from "../../application/checkout/jobs.ts";
import { makeLicenseUpgrade } from "../../application/checkout/license-upgrade.ts";
import { makeOpenCheckout } from "../../application/checkout/open-checkout.ts";
import type { UserRepository } from "../../application/identity/ports.ts";
import { checkoutReturnUrls } from "../config/checkout-return-url.ts";
import { createPostgresDiscountCodes } from "../postgres/discount-codes.ts";
import { createPostgresGuestCustomers } from "../postgres/guest-customers.ts";
import { createPostgresLicenseUpgrades } from "../postgres/license-upgrades.ts";
import { createOrderAccess } from "../security/order-access.ts";
import type { CatalogFeature } from "./catalog.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { PaymentsFeature } from "./payments.ts";
import type { Platform } from "./platform.ts";

/** Prices a cart, opens an order with the chosen gateway's hosted checkout, and closes it when it expires. */
export function wireCheckout(
  { config, infra, sql, logger, mutex, clock }: Platform,
  {
    catalog,
    payments,
    users,
  }: { catalog: CatalogFeature["catalog"]; payments: PaymentsFeature; users: UserRepository },
) {
  const access = createOrderAccess(infra.jwtSecret);
  const pricing = { ...catalog, discounts: createPostgresDiscountCodes(sql), clock };
  const opening = {
    ...pricing,
    orders: payments.orders,
    customers: { find: users.findById },
    access,
    gateways: payments.gateways,
    settings: payments.settings,
    refs: payments.refs,
    breakers: payments.breakers,
    urls: checkoutReturnUrls(config.checkoutReturnUrl, config.publicBaseUrl),
  };
  return {
    access,
    useCases: {
      calculateCheckout: makeCalculateCheckout(pricing),
      createCheckout: makeCreateCheckout({
        ...opening,
        guests: createPostgresGuestCustomers(sql),
      }),
      upgradeLicense: makeLicenseUpgrade({
        licenses: createPostgresLicenseUpgrades(sql),
        prices: payments.prices,
        products: catalog.products,
        currency: catalog.currency,
        customers: opening.customers,
        open: makeOpenCheckout(opening),
        mutex,
      }),
    },
    jobs: {
      [expireCheckoutJob.kind]: makeExpireGatewayCheckout({
        orders: payments.orders,
        gateways: payments.gateways,
        log: logger,
      }),
    } satisfies FeatureJobs,
  };
}

export type CheckoutFeature = ReturnType<typeof wireCheckout>;
