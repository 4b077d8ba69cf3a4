import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { DiscountedTotals } from "../../domain/discounts/apply.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { OrderStatus } from "../../domain/orders/order-status.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { Dispute, Payment, TaxBehavior } from "../../domain/payments/payment.ts";
import type { Page, PageRequest } from "../shared/ports.ts";

export interface NewOrder {
  readonly customer_id: string;
  readonly payment_gateway: PaymentGatewayName;
  readonly gateway_environment: GatewayEnvironment;
  readonly tax_behavior: TaxBehavior;
  readonly metadata: string;
  /** With its discount, which the order holds one redemption of (refused when none is left). */
  readonly totals: DiscountedTotals;
}

/** The gateway an order is paid through, and what goes with it. */
export type GatewayBinding = Pick<NewOrder, "payment_gateway" | "gateway_environment" | "tax_behavior" | "metadata">;

export interface OrderFilter {
  readonly customer_id?: string;
  readonly status?: OrderStatus;
  readonly payment_gateway?: PaymentGatewayName;
  readonly needs_attention?: boolean;
}

export interface RefundRecord {
  readonly id: string;
  readonly payment_id: string;
  readonly gateway_refund_id: string;
  readonly amount: number;
  readonly status: "succeeded" | "pending" | "failed";
  readonly created_at: Date;
}

/** The plan an item's subscription bills now: after a plan change, not the variant bought. */
export interface OrderItemPlan {
  readonly order_item_id: string;
  readonly subscription_id: string;
  readonly status: string;
  readonly billing_interval: "monthly" | "yearly";
  readonly current_period_end: Date | null;
  readonly pending_interval: "monthly" | "yearly" | null;
  readonly pending_at: Date | null;
}

export interface OrderDetails {
  readonly order: Order;
  readonly items: readonly OrderItem[];
  readonly payments: readonly Payment[];
  readonly refunds: readonly RefundRecord[];
  readonly disputes: readonly Dispute[];
  /** Each recurring item's subscription as it is now. */
  readonly subscriptions: readonly OrderItemPlan[];
}

export interface OrderRepository {
  /** The order and its items in one transaction. */
  create(order: NewOrder): Promise<{ order: Order; items: OrderItem[] }>;
  /**
   * Records the gateway's checkout on the order, and says whether the order expired meanwhile (the
   * minute tick can expire it while a slow gateway opens the session).
   */
  attachCheckout(orderId: string, session: { session_id: string; url: string }): Promise<{ readonly expired: boolean }>;
  markCheckoutFailed(orderId: string, reason: string): Promise<void>;
  /**
   * Moves an order whose checkout is not open yet to another gateway (failover), so that only a
   * payment through that one pays it. False when it is no longer waiting for its checkout.
   */
  rebind(orderId: string, binding: GatewayBinding): Promise<boolean>;
  find(orderId: string): Promise<OrderDetails | undefined>;
  list(filter: OrderFilter, page: PageRequest): Promise<Page<Order>>;
}

/** A license as an upgrade of it needs it: its owner, type, status and the purchase it came from. */
export interface UpgradableLicense {
  readonly id: string;
  readonly customer_id: string;
  readonly product_id: string;
  readonly license_type: string;
  readonly status: "active" | "suspended" | "revoked";
  readonly order_id: string;
  readonly payment_type: "one_time" | "subscription";
  /** Seats bought: the upgrade pays the difference for each. */
  readonly quantity: number;
  readonly payment_gateway: PaymentGatewayName;
}

/** Licenses being upgraded by orders of their own. */
export interface LicenseUpgrades {
  find(licenseId: string): Promise<UpgradableLicense | undefined>;
  /**
   * An upgrade order of the license that may still be paid or was paid and stands (waiting for its
   * payment, paid and not yet delivered, or its checkout failed within the last day), if one is.
   */
  pending(licenseId: string): Promise<{ readonly order_id: string } | undefined>;
  /** The order item that pays for the upgrade of the license, from one type to another. */
  record(orderItemId: string, licenseId: string, fromType: string, toType: string): Promise<void>;
}

export interface CustomerDirectory {
  find(customerId: string): Promise<{ id: string; email: string; name: string } | undefined>;
}

/**
 * Who a guest checkout's order belongs to: the customer account with the address when it has
 * proven the address, else the address's guest record, made on first use. Undefined when an admin
 * disabled the address's account or guest record: it buys nothing as a guest either.
 */
export interface GuestCustomers {
  forAddress(email: string, name: string): Promise<{ id: string; email: string; name: string } | undefined>;
}

/**
 * The signed access a guest's order status link carries, in place of a session: it opens that one
 * order and nothing else.
 */
export interface OrderAccess {
  sign(orderId: string): Promise<string>;
  verify(orderId: string, token: string): Promise<boolean>;
}

/** Where the gateway sends the customer after paying or giving up; a guest's links carry the order's access. */
export interface CheckoutUrls {
  success(orderId: string, access?: string): string;
  cancel(orderId: string, access?: string): string;
  /** The order status page. */
  status(orderId: string, access?: string): string;
}
