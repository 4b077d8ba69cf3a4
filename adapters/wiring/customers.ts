import { makeBillingPortal } from "../../application/customers/billing-portal.ts";
import { makeChangePlan } from "../../application/customers/change-plan.ts";
import { makeCustomerSubscriptions } from "../../application/customers/customer-subscriptions.ts";
import { makeCustomerViews } from "../../application/customers/customer-views.ts";
import { makeEmailedLinks } from "../../application/customers/emailed-links.ts";
import { invoiceLink, makePaymentDocuments } from "../../application/customers/payment-documents.ts";
import { makeResolveDownload } from "../../application/customers/resolve-download.ts";
import { orderFulfillment } from "../../application/fulfillment/order-fulfillment.ts";
import { createArtifactDownloads } from "../downloads/artifact-download.ts";
import { createPostgresCustomerReadModel } from "../postgres/customer-read-model.ts";
import { createExpiringLinkSigner } from "../security/expiring-links.ts";
import type { CheckoutFeature } from "./checkout.ts";
import type { FulfillmentFeature } from "./fulfillment.ts";
import type { LicensingFeature } from "./licensing.ts";
import type { PaymentsFeature } from "./payments.ts";
import type { Platform } from "./platform.ts";

/** How long a failed renewal's emailed link to the billing portal works. */
const BILLING_LINK_TTL_SECONDS = 7 * 86_400;
/** How long a renewal email's link to its invoice works; after that the order page has it. */
const INVOICE_LINK_TTL_SECONDS = 30 * 86_400;

/** A customer's own account: orders, deliveries and their next actions, downloads, subscriptions. */
export function wireCustomers(
  { sql, uow, clock, outbound, config, logger, infra }: Platform,
  features: {
    payments: PaymentsFeature;
    fulfillment: FulfillmentFeature;
    licensing: LicensingFeature;
    checkout: CheckoutFeature;
  },
) {
  const { payments, fulfillment, licensing, checkout } = features;
  const readModel = createPostgresCustomerReadModel(sql);
  const { downloads } = licensing;
  const subscriptions = makeCustomerSubscriptions({
    readModel,
    subscriptions: payments.subscriptions,
    gateways: payments.gateways,
    uow,
    clock,
    fulfillment: orderFulfillment,
  });
  const emailedLinks = (purpose: string, ttlSeconds: number) =>
    makeEmailedLinks({
      signer: createExpiringLinkSigner(infra.jwtSecret, purpose),
      clock,
      publicBaseUrl: config.publicBaseUrl,
      ttlSeconds,
    });
  const invoiceLinks = emailedLinks("invoice", INVOICE_LINK_TTL_SECONDS);
  const changePlan = makeChangePlan({
    subscriptions: payments.subscriptions,
    orders: payments.orders,
    prices: payments.prices,
    refs: payments.refs,
    gateways: payments.gateways,
    policy: config.planChanges,
    readModel,
    uow,
    fulfillment: orderFulfillment,
    clock,
  });
  const billingPortal = makeBillingPortal({
    subscriptions: payments.subscriptions,
    gateways: payments.gateways,
    links: emailedLinks("billing-portal", BILLING_LINK_TTL_SECONDS),
    returnUrl: new URL("/account", config.publicBaseUrl).href,
  });
  return {
    billingPortal,
    invoiceLink: (orderId: string, paymentId: string) => invoiceLink(invoiceLinks, orderId, paymentId),
    useCases: {
      billingPortal,
      customerViews: makeCustomerViews({
        readModel,
        orders: payments.orders,
        fulfillments: fulfillment.fulfillments,
        downloads,
        access: checkout.access,
      }),
      resolveDownload: makeResolveDownload({ readModel, downloads }),
      paymentDocument: makePaymentDocuments({
        orders: payments.orders,
        gateways: payments.gateways,
        links: invoiceLinks,
      }),
      downloadArtifact: createArtifactDownloads({
        outbound,
        timeoutSeconds: config.downloadSourceTimeoutSeconds,
        logger,
      }),
      planOptions: changePlan.options,
      changePlan: changePlan.change,
      cancelCustomerSubscription: subscriptions.cancel,
      resumeCustomerSubscription: subscriptions.resume,
    },
  };
}
export type CustomersFeature = ReturnType<typeof wireCustomers>;
