import type { Page, PageRequest } from "../shared/ports.ts";

/** What a customer is told about a delivery: ready, failed, or waiting for something from them. */
export type FulfillmentNoticeKind = "fulfillment.ready" | "fulfillment.failed" | "fulfillment.action_required";

/** What a subscriber is told: a renewal could not be collected, a trial ends soon, a renewal was paid. */
export const SUBSCRIPTION_NOTICE_KINDS = [
  "subscription.payment_failed",
  "subscription.trial_ending",
  "subscription.plan_changed",
  "subscription.renewed",
] as const;

export type SubscriptionNoticeKind = (typeof SUBSCRIPTION_NOTICE_KINDS)[number];

/** What a license holder is told when the shop acts on the license. */
export const LICENSE_NOTICE_KINDS = ["license.suspended", "license.reinstated", "license.reissued"] as const;

export type LicenseNoticeKind = (typeof LICENSE_NOTICE_KINDS)[number];

export type NotificationKind = FulfillmentNoticeKind | SubscriptionNoticeKind | LicenseNoticeKind;

export interface NotificationOutbox {
  add(kind: NotificationKind, payload: Readonly<Record<string, unknown>>): Promise<string>;
  /** As `add`, once per `key` ever: undefined when a message with that key was added before. */
  addOnce(kind: NotificationKind, payload: Readonly<Record<string, unknown>>, key: string): Promise<string | undefined>;
}

export interface NotificationOutboxMessage {
  readonly id: string;
  readonly kind: NotificationKind;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly dispatched_at: Date | null;
}

export interface NotificationOutboxReader {
  find(id: string): Promise<NotificationOutboxMessage | undefined>;
  markDispatched(id: string): Promise<void>;
  /** Messages older than `olderThanSeconds` still not dispatched (for the minute tick's sweep). */
  stale(olderThanSeconds: number, limit: number): Promise<NotificationOutboxMessage[]>;
}

export interface CustomerNotification {
  readonly outbox_id: string;
  readonly customer_id: string;
  readonly kind: NotificationKind;
  readonly title: string;
  readonly body: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** A notification as the customer's list keeps it. */
export interface StoredNotification extends Omit<CustomerNotification, "outbox_id"> {
  readonly id: string;
  readonly created_at: Date;
  readonly read_at: Date | null;
}

export interface NotificationFilter {
  /** Only those not read yet. */
  readonly unread?: boolean;
}

/** The customers' notification lists, as the default Notifier writes them. */
export interface CustomerNotificationList {
  /** One customer's notifications, newest first. */
  listForCustomer(customerId: string, filter: NotificationFilter, page: PageRequest): Promise<Page<StoredNotification>>;
  /** Marks one of the customer's notifications read (kept as first read); undefined when it is not theirs. */
  markRead(customerId: string, id: string): Promise<StoredNotification | undefined>;
  /** Marks every unread notification of the customer read; how many were. */
  markAllRead(customerId: string): Promise<number>;
}

/** Where notifications go. The default adapter writes a log line and the customer's notification list. */
export interface Notifier {
  /** Idempotent per `outbox_id`. */
  deliver(notification: CustomerNotification): Promise<void>;
}

/** What a customer's email about one delivery says. */
export interface FulfillmentMailFacts {
  readonly customer_id: string;
  /** A guest record: its emails carry the order's signed link and a link that sets a password. */
  readonly customer_guest: boolean;
  readonly customer_email: string;
  readonly customer_name: string;
  readonly product_name: string;
  readonly order_id: string;
  readonly driver: string;
  readonly workspace_url: string | null;
  readonly attempts: number;
  /** What an `awaiting_customer` delivery waits for (`verify_email`), when it says. */
  readonly awaiting: string | null;
  /** A license delivery's key and download entitlement (the ready email carries both). */
  readonly license_key: string | null;
  readonly entitlement_id: string | null;
}

/** The links a guest's emails carry in place of a session. */
export interface GuestLinks {
  /** The order status page with the order's signed access. */
  orderStatus(orderId: string): Promise<string>;
  /** A fresh link to the page that sets a password on the guest record. */
  claim(customerId: string, email: string): Promise<string>;
}

export interface FulfillmentMailFactsReader {
  forFulfillment(fulfillmentId: string): Promise<FulfillmentMailFacts | undefined>;
}

/** Who to email about a subscription (or a license) and what it is. */
export interface SubscriptionMailFacts {
  readonly customer_id: string;
  /** A guest record: its emails carry the order's signed link and a link that sets a password. */
  readonly customer_guest: boolean;
  readonly customer_email: string;
  readonly customer_name: string;
  readonly product_name: string;
  readonly order_id: string;
}

/** Who to email about a license and what to say: the customer, the product, the current key. */
export interface LicenseMailFacts extends SubscriptionMailFacts {
  readonly license_key: string;
}

export interface LicenseMailFactsReader {
  forLicense(licenseId: string): Promise<LicenseMailFacts | undefined>;
}

export interface SubscriptionMailFactsReader {
  forSubscription(subscriptionId: string): Promise<SubscriptionMailFacts | undefined>;
}
