import { makeGuestLinks } from "../../application/identity/guest-claims.ts";
import { makeDispatchNotification } from "../../application/notifications/dispatch-notification.ts";
import { notifyJob } from "../../application/notifications/jobs.ts";
import { makeListNotifications } from "../../application/notifications/list-notifications.ts";
import { makeReadNotifications } from "../../application/notifications/read-notifications.ts";
import { orderStatusUrl } from "../config/checkout-return-url.ts";
import {
  createLogAndListNotifier,
  createPostgresCustomerNotificationList,
} from "../postgres/customer-notifications.ts";
import {
  createPostgresFulfillmentMailFacts,
  createPostgresLicenseMailFacts,
} from "../postgres/fulfillment-mail-facts.ts";
import { createPostgresNotificationOutboxReader } from "../postgres/notification-outbox.ts";
import { createPostgresSubscriptionMailFacts } from "../postgres/subscription-mail-facts.ts";
import type { CheckoutFeature } from "./checkout.ts";
import type { CustomersFeature } from "./customers.ts";
import type { IdentityFeature } from "./identity.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { LicensingFeature } from "./licensing.ts";
import type { MailFeature } from "./mail.ts";
import type { Platform } from "./platform.ts";

/** The outbox's messages to customers: dispatched by a job, listed in the customer's notification list, emailed with mail. */
export function wireNotifications(
  { sql, logger, config, clock }: Platform,
  {
    mail,
    identity,
    checkout,
    customers,
    licensing,
  }: {
    mail: MailFeature;
    identity: IdentityFeature;
    checkout: CheckoutFeature;
    customers: CustomersFeature;
    licensing: LicensingFeature;
  },
) {
  const outbox = createPostgresNotificationOutboxReader(sql);
  const notifier = createLogAndListNotifier({ sql, logger });
  const notificationList = createPostgresCustomerNotificationList(sql);
  const reader = makeReadNotifications({ notifications: notificationList });
  const email = mail.queue && {
    facts: createPostgresFulfillmentMailFacts(sql),
    queue: mail.queue,
    publicBaseUrl: config.publicBaseUrl,
    guestLinks: makeGuestLinks({
      links: identity.emailLinks,
      access: checkout.access,
      orderStatusUrl: (orderId, access) => orderStatusUrl(config.publicBaseUrl, orderId, access),
      ttlSeconds: config.guestClaimTtlSeconds,
      publicBaseUrl: config.publicBaseUrl,
      clock,
    }),
    subscriptionFacts: createPostgresSubscriptionMailFacts(sql),
    subscriptionLinks: {
      billingPortal: (subscriptionId: string) => customers.billingPortal.link(subscriptionId),
      invoice: customers.invoiceLink,
    },
    licenseFacts: createPostgresLicenseMailFacts(sql),
    downloadLink: licensing.emailDownloadLink,
  };
  return {
    outbox,
    useCases: {
      listCustomerNotifications: makeListNotifications({ notifications: notificationList }),
      readNotification: reader.markRead,
      readAllNotifications: reader.markAllRead,
    },
    jobs: {
      [notifyJob.kind]: makeDispatchNotification({ outbox, notifier, ...(email ? { mail: email } : {}) }),
    } satisfies FeatureJobs,
  };
}

export type NotificationsFeature = ReturnType<typeof wireNotifications>;
