import type { EmailQueue } from "../mail/ports.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { customerEmail } from "./customer-email.ts";
import type { notifyJob } from "./jobs.ts";
import { type EmailDownloadLink, licenseEmail, licenseReadyEmail } from "./license-email.ts";
import {
  type CustomerNotification,
  type FulfillmentMailFactsReader,
  type GuestLinks,
  LICENSE_NOTICE_KINDS,
  type LicenseMailFactsReader,
  type LicenseNoticeKind,
  type NotificationKind,
  type NotificationOutboxMessage,
  type NotificationOutboxReader,
  type Notifier,
  SUBSCRIPTION_NOTICE_KINDS,
  type SubscriptionMailFactsReader,
  type SubscriptionNoticeKind,
} from "./ports.ts";
import { type SubscriptionMailLinks, subscriptionEmail } from "./subscription-email.ts";

/** With mail configured, each notification is also emailed to the customer. */
export interface NotificationMail {
  readonly facts: FulfillmentMailFactsReader;
  /** Queues in a transaction of its own: the email and its sending job commit together. */
  readonly queue: EmailQueue;
  readonly publicBaseUrl: string;
  readonly guestLinks: GuestLinks;
  readonly subscriptionFacts: SubscriptionMailFactsReader;
  readonly subscriptionLinks: SubscriptionMailLinks;
  readonly licenseFacts: LicenseMailFactsReader;
  /** A download link for an email (longer-lived than a page's). */
  downloadLink(entitlementId: string, customerId: string): Promise<EmailDownloadLink>;
}

const WORDS: Readonly<Record<NotificationKind, { readonly title: string; readonly body: string }>> = {
  "fulfillment.ready": {
    title: "Your purchase is ready",
    body: "Delivery finished. Open your dashboard for the next step.",
  },
  "fulfillment.failed": {
    title: "We could not deliver your purchase",
    body: "Delivery failed after several attempts. You can retry it from your dashboard; our team has been told.",
  },
  "fulfillment.action_required": {
    title: "Your purchase needs something from you",
    body: "Delivery waits for you: tell us the domain your installation should use, from your dashboard.",
  },
  "subscription.payment_failed": {
    title: "We could not renew your subscription",
    body: "The renewal payment failed. Update your card from your account; the payment is tried again at once.",
  },
  "subscription.trial_ending": {
    title: "Your trial ends soon",
    body: "Your subscription then continues on the plan you chose. Change plan or cancel from your account before then.",
  },
  "subscription.renewed": {
    title: "Your subscription is renewed",
    body: "We received your renewal payment. Its invoice is on your order page.",
  },
  "subscription.plan_changed": {
    title: "Your plan has changed",
    body: "Your subscription now renews on its new plan. Any difference billed is on your order page.",
  },
  "license.suspended": {
    title: "Your license is suspended",
    body: "The shop suspended your license: the software stops accepting it and its downloads are paused.",
  },
  "license.reinstated": {
    title: "Your license works again",
    body: "Your license is active again: the software accepts it and its downloads are open.",
  },
  "license.reissued": {
    title: "Your license has a new key",
    body: "The old key no longer works. The new one is on your Licenses page and in your email.",
  },
};

const isSubscriptionNotice = (
  message: NotificationOutboxMessage,
): message is NotificationOutboxMessage & { readonly kind: SubscriptionNoticeKind } =>
  (SUBSCRIPTION_NOTICE_KINDS as readonly string[]).includes(message.kind);

const isLicenseNotice = (
  message: NotificationOutboxMessage,
): message is NotificationOutboxMessage & { readonly kind: LicenseNoticeKind } =>
  (LICENSE_NOTICE_KINDS as readonly string[]).includes(message.kind);

/** What each kind's notification data carries: ids and public fields only. */
const DATA_FIELDS: Readonly<Record<"fulfillment" | "subscription" | "license", readonly string[]>> = {
  license: ["license_id", "product_id", "order_id"],
  fulfillment: ["fulfillment_id", "order_id", "order_item_id", "driver"],
  subscription: [
    "subscription_id",
    "order_id",
    "order_item_id",
    "payment_id",
    "trial_ends_at",
    "current_period_end",
    "from",
    "to",
  ],
};

function compose(message: NotificationOutboxMessage): CustomerNotification {
  const data = message.payload;
  return {
    outbox_id: message.id,
    customer_id: String(data.customer_id),
    kind: message.kind,
    ...WORDS[message.kind],
    data: Object.fromEntries(
      DATA_FIELDS[isSubscriptionNotice(message) ? "subscription" : isLicenseNotice(message) ? "license" : "fulfillment"]
        .filter((field) => data[field] !== undefined)
        .map((field) => [field, data[field]]),
    ),
  };
}

/** The email for a message, or undefined when there is nobody to send it to (the record is gone). */
async function emailFor(mail: NotificationMail, message: NotificationOutboxMessage) {
  const { guestLinks } = mail;
  const common = async (facts: {
    customer_guest: boolean;
    customer_id: string;
    customer_email: string;
    order_id: string;
  }) =>
    facts.customer_guest
      ? {
          orderUrl: await guestLinks.orderStatus(facts.order_id),
          accountLabel: "Set a password to keep your orders in an account",
          accountUrl: await guestLinks.claim(facts.customer_id, facts.customer_email),
        }
      : {
          orderUrl: new URL(`/orders/${encodeURIComponent(facts.order_id)}`, mail.publicBaseUrl).href,
          accountLabel: "Your account",
          accountUrl: new URL("/account", mail.publicBaseUrl).href,
        };
  if (isSubscriptionNotice(message)) {
    const facts = await mail.subscriptionFacts.forSubscription(String(message.payload.subscription_id ?? ""));
    return facts && subscriptionEmail(message, facts, await common(facts), mail.subscriptionLinks);
  }
  if (isLicenseNotice(message)) {
    const facts = await mail.licenseFacts.forLicense(String(message.payload.license_id ?? ""));
    return facts && licenseEmail(message, facts, await common(facts));
  }
  const facts = await mail.facts.forFulfillment(String(message.payload.fulfillment_id ?? ""));
  if (!facts) return undefined;
  const links = await common(facts);
  if (message.kind === "fulfillment.ready" && facts.license_key && facts.entitlement_id) {
    const download = await mail.downloadLink(facts.entitlement_id, facts.customer_id);
    return licenseReadyEmail(message, facts, facts.license_key, download, links);
  }
  const guest = facts.customer_guest ? { orderUrl: links.orderUrl, claimUrl: links.accountUrl } : undefined;
  return customerEmail(message, facts, mail.publicBaseUrl, guest);
}

/**
 * The notify job: one outbox message out through the Notifier and, with mail, queued as an email
 * (once per message, whatever the retries), then marked dispatched.
 */
export function makeDispatchNotification(deps: {
  outbox: NotificationOutboxReader;
  notifier: Notifier;
  mail?: NotificationMail;
}): JobHandler<typeof notifyJob> {
  return async function dispatchNotification({ outbox_id }): Promise<void> {
    const message = await deps.outbox.find(outbox_id);
    if (!message) throw new PermanentJobFailure(`outbox message ${outbox_id} does not exist`);
    if (message.dispatched_at) return;
    await deps.notifier.deliver(compose(message));
    if (deps.mail) {
      const email = await emailFor(deps.mail, message);
      if (email) await deps.mail.queue.queue(email);
    }
    await deps.outbox.markDispatched(message.id);
  };
}
