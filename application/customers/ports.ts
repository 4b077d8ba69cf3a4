import type { FulfillmentDriver } from "../../domain/catalog/drivers.ts";
import type { FulfillmentStatus } from "../../domain/fulfillment/fulfillment.ts";
import type { OrderStatus } from "../../domain/orders/order-status.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

export interface DashboardRow {
  readonly order_id: string;
  readonly order_status: OrderStatus;
  readonly payment_gateway: string;
  readonly checkout_url: string | null;
  readonly order_item_id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly delivery_model: string;
  readonly driver: FulfillmentDriver;
  readonly variant: string;
  readonly fulfillment_id: string | null;
  readonly status: FulfillmentStatus | null;
  /** What an `awaiting_customer` delivery waits for (`verify_email`), when it says. */
  readonly awaiting: string | null;
  readonly external_status: string | null;
  readonly workspace_url: string | null;
  readonly license_key: string | null;
  readonly max_activations: number | null;
  readonly activations: number | null;
  readonly entitlement_id: string | null;
  readonly task_due_at: Date | null;
  readonly created_at: Date;
}

export interface CustomerLicense {
  readonly id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly license_type: string;
  readonly license_key: string;
  readonly max_activations: number;
  readonly activations: number;
  /** Its activation policy: concurrent use, and how long an offline license file may last (0: none). */
  readonly floating: boolean;
  readonly offline_checkout_max_days: number;
  readonly expires_at: Date | null;
  readonly status: "active" | "suspended" | "revoked";
  readonly entitlement_id: string | null;
  readonly created_at: Date;
}

export interface CustomerSubscription {
  readonly id: string;
  readonly order_id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly gateway: string;
  readonly status: string;
  readonly billing_interval: string;
  readonly trial_ends_at: Date | null;
  readonly current_period_end: Date | null;
  readonly cancelled_at: Date | null;
  readonly cancel_at_period_end: boolean;
  /** A plan change the gateway makes at `pending_at`, the end of the paid period; null without one. */
  readonly pending_interval: string | null;
  readonly pending_at: Date | null;
  /** The discount code the subscription was bought with, while it still lowers renewals; else null. */
  readonly discount: {
    readonly code: string;
    readonly currency: string;
    /** What each renewal costs before tax while the code lasts (the order's renewing items). */
    readonly renewal_amount: number;
    /** Renewals it still lowers; null: every one. */
    readonly renewals_left: number | null;
  } | null;
}

export interface CustomerInstallation {
  readonly id: string;
  readonly fulfillment_record_id: string;
  readonly product_id: string;
  readonly product_name: string;
  readonly domain: string | null;
  readonly url: string | null;
  readonly status: string;
  readonly created_at: Date;
}

export interface Entitlement {
  readonly id: string;
  readonly customer_id: string;
  readonly artifact_source: string;
  readonly version: string | null;
  readonly revoked_at: Date | null;
  /** The status of the license the download belongs to: a suspended license downloads nothing. */
  readonly license_status: "active" | "suspended" | "revoked";
}

/** Everything a customer sees, always filtered by the customer: another's rows never come back. */
export interface CustomerReadModel {
  /** Newest first; with `orderId`, that order's items only. */
  dashboard(customerId: string, orderId?: string): Promise<DashboardRow[]>;
  licenses(customerId: string): Promise<CustomerLicense[]>;
  subscriptions(customerId: string): Promise<CustomerSubscription[]>;
  subscription(customerId: string, id: string): Promise<CustomerSubscription | undefined>;
  installations(customerId: string): Promise<CustomerInstallation[]>;
  entitlement(id: string): Promise<Entitlement | undefined>;
}

/** Signs and checks expiring download links. */
export interface DownloadLinks {
  link(entitlementId: string, customerId: string): Promise<string>;
  verify(
    token: string,
  ): Promise<{ ok: true; entitlement_id: string; customer_id: string } | { ok: false; reason: "invalid" | "expired" }>;
}

/** What a customer's subscription asks of fulfillment when it ends: to cancel what its items received. */
export interface FulfillmentActions {
  actOnOrder(
    scope: TransactionScope,
    target: { readonly order_id: string; readonly order_item_id?: string },
    action: "cancel",
    reason: string,
    cause: string,
  ): Promise<void>;
}

/**
 * Signs and checks emailed links that open something without signing in until they expire (a
 * subscription's billing portal, a payment's invoice). `subject` names what the link opens;
 * `expiresAt` is in Unix seconds.
 */
export interface ExpiringLinkSigner {
  sign(subject: string, expiresAt: number): Promise<string>;
  verify(subject: string, expiresAt: number, token: string): Promise<boolean>;
}

/** The query of an emailed link: when it stops working, and its signature. */
export interface SignedLink {
  readonly expiresAt: number;
  readonly access: string;
}
