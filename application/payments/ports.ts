import type { BillingInterval } from "../../domain/catalog/pricing.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { Variant } from "../../domain/catalog/variants.ts";
import type { GatewayEnvironment, GatewayEvent, PaymentPointer } from "../../domain/payments/gateway-event.ts";
import type { PaymentReferences, TaxBehavior } from "../../domain/payments/payment.ts";
import type { ConnectionFailure } from "../shared/connection-check.ts";
import type { PlanChange, PlanChangePreview } from "./plan-change-ports.ts";

export type {
  GatewayCatalog,
  GatewayDiscountRefs,
  GatewayProductRefs,
  GatewayRef,
  GatewayRefSlot,
  RemotePrice,
  RemoteProduct,
} from "./gateway-catalog-ports.ts";
export type { PlanChange, PlanChangePreview, PlanChangeTiming, VariantPrices } from "./plan-change-ports.ts";

/** The active environment's settings with secret values resolved, read at every call. */
export interface GatewayRuntimeSettings {
  readonly gateway: PaymentGatewayName;
  readonly environment: GatewayEnvironment;
  readonly base_url: string;
  readonly api_key: string;
  readonly client_key: string | null;
  readonly webhook_tolerance_seconds: number;
  readonly timeout_seconds: number;
  /** How the prices the marketplace creates at this gateway treat tax. */
  readonly tax_behavior: TaxBehavior;
}

/** The secrets one environment's webhooks are signed with (the current one first). */
export interface WebhookSecrets {
  readonly environment: GatewayEnvironment;
  readonly secrets: readonly string[];
  readonly tolerance_seconds: number;
}

export interface GatewaySettingsSource {
  /** Throws `CredentialsNotFound` (upstream "gateway") when a referenced secret is missing. */
  resolve(gateway: PaymentGatewayName): Promise<GatewayRuntimeSettings>;
  activeEnvironment(gateway: PaymentGatewayName): Promise<GatewayEnvironment>;
  taxBehavior(gateway: PaymentGatewayName): Promise<TaxBehavior>;
  /**
   * Every environment whose webhook secret is configured: events still arrive from the environment
   * that was active before a switch, and each is bound to the environment whose secret signed it.
   */
  webhookSecrets(gateway: PaymentGatewayName): Promise<readonly WebhookSecrets[]>;
}

export interface CheckoutLine {
  readonly order_item_id: string;
  readonly product_id: string;
  readonly name: string;
  readonly variant: Variant;
  readonly billing_interval: BillingInterval | null;
  /** Minor units per unit, in `currency`. */
  readonly unit_amount: number;
  readonly quantity: number;
  readonly trial_days: number | null;
  /** A synced gateway price for this product and variant, when one exists in the active environment. */
  readonly gateway_price_id: string | null;
}

/**
 * A discount code as a gateway needs it to take the same amount off: created there once (looked
 * up first) and applied to the whole checkout.
 */
export interface CheckoutDiscount {
  readonly discount_id: string;
  readonly code: string;
  readonly type: "percent" | "fixed";
  /** Basis points for `percent`, minor units of `currency` for `fixed`. */
  readonly amount: number;
  readonly currency: string | null;
  readonly duration: "once" | "repeating" | "forever";
  readonly duration_in_months: number | null;
  /** Payments it lowers, the first included (null: all): what a gateway counting periods is told. */
  readonly payments: number | null;
}

export interface CheckoutSessionRequest {
  readonly order_id: string;
  readonly currency: string;
  readonly lines: readonly CheckoutLine[];
  readonly customer: { readonly id: string; readonly email: string; readonly name: string };
  readonly success_url: string;
  readonly cancel_url: string;
  /** Stated on every price the session creates; the order keeps it to check the payment against. */
  readonly tax_behavior: TaxBehavior;
  /** The discount code to take off the whole checkout, if any. */
  readonly discount?: CheckoutDiscount;
}

export interface CheckoutSession {
  readonly session_id: string;
  readonly url: string;
  readonly client_key?: string;
}

/**
 * How a checkout ended when the marketplace closed it: `closed_now` when this call closed it;
 * otherwise the gateway had already closed it (expired, paid, cancelled, or forgotten), and
 * `status` says which, in the gateway's words.
 */
export interface CheckoutClosure {
  readonly closed_now: boolean;
  readonly status: string;
}

export interface WebhookRequest {
  /** Exactly the bytes received, undecoded: signatures are computed over them, and only then is the text read. */
  readonly rawBody: Uint8Array;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

export interface ResolvedPayment extends Required<PaymentReferences> {
  readonly payment_id: string;
}

export interface RefundResult {
  readonly refund_id: string;
  readonly status: "succeeded" | "pending" | "failed";
}

export interface RemoteSubscription {
  readonly subscription_id: string;
  readonly status: string;
  /** The gateway's customer the subscription bills (its portal is opened for them). */
  readonly customer_id: string | null;
  readonly trial_ends_at: string | null;
  readonly current_period_end: string | null;
  readonly cancelled_at: string | null;
  /** The subscription ends at `current_period_end` unless the cancellation is withdrawn. */
  readonly cancel_at_period_end: boolean;
  /** The gateway's price the subscription bills now (its first item's). */
  readonly price_id: string | null;
  /** How often that price bills; null for an interval no variant sells (every week, every 3 months). */
  readonly billing_interval: BillingInterval | null;
}

export type ConnectionReport =
  | { readonly ok: true; readonly environment: GatewayEnvironment; readonly latency_ms: number }
  | ({ readonly ok: false; readonly environment: GatewayEnvironment | null } & ConnectionFailure);

/** The longest time-out a gateway's settings allow (`timeout_seconds`). */
export const LONGEST_GATEWAY_TIMEOUT_SECONDS = 120;

/** The most gateway calls one `refund` makes: a reservation's claim lasts long enough for all of them. */
export const REFUND_ATTEMPT_MAX_CALLS = 7;

/**
 * One payment gateway, behind one port so that nothing past the webhook knows which gateway it
 * is. Remote failures throw `UpstreamError`s with upstream "gateway".
 */
/** The ids a recorded payment is known by at its gateway. */
export interface PaymentDocumentRef {
  readonly payment_id: string;
  readonly invoice_id: string | null;
  readonly charge_id: string | null;
  readonly payment_intent_id: string | null;
}

export interface PaymentGateway {
  readonly name: PaymentGatewayName;
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /**
   * Closes an unpaid checkout so that it can no longer be paid. One the gateway already closed is
   * not an error; one still payable after a refusal is (and so is every transient failure).
   */
  expireCheckout(sessionId: string): Promise<CheckoutClosure>;
  /**
   * Stops a discount code from being applied to new checkouts at the gateway (Stripe deletes the
   * coupon, Paddle archives the discount). Subscriptions that hold it keep it, as both gateways do.
   */
  retireDiscount(discountId: string): Promise<void>;
  /**
   * Checks the signature over the raw bytes against each environment's secrets and answers which
   * environment signed it; throws `InvalidWebhookSignature`.
   */
  verifyWebhook(request: WebhookRequest): Promise<{ readonly environment: GatewayEnvironment }>;
  /** Throws `InvalidWebhookPayload` when the body is not an event this gateway sends. */
  normalizeWebhookPayload(payload: unknown): GatewayEvent;
  /**
   * Refunds `amount` of the payment (null: all of it). `reference` is the marketplace's id of this
   * refund: asked again with it, the gateway answers with the refund it already made instead of
   * making a second one. Makes at most `REFUND_ATTEMPT_MAX_CALLS` calls. `lookUpFirst`: an earlier
   * attempt's outcome is unknown, so a gateway that forgets references after a while (Stripe's
   * idempotency keys last 24 hours) looks for the refund made under it before making one.
   */
  refund(
    payment: { readonly payment_id: string; readonly order_id: string; readonly currency: string },
    amount: number | null,
    reference: string,
    options?: { readonly lookUpFirst?: boolean },
  ): Promise<RefundResult>;
  /**
   * The payment an event points at, with every id the gateway knows it by. An event that names only
   * an invoice (a Stripe subscription's first payment, each renewal) is completed at the gateway.
   */
  resolvePayment(pointer: PaymentPointer): Promise<ResolvedPayment>;
  getSubscription(subscriptionId: string): Promise<RemoteSubscription>;
  /** Ends the subscription now. */
  cancelSubscription(subscriptionId: string): Promise<RemoteSubscription>;
  /** Lets the paid period run out, then ends the subscription; asking twice changes nothing. */
  scheduleCancellation(subscriptionId: string): Promise<RemoteSubscription>;
  /** Withdraws a scheduled cancellation before the period ends; without one, changes nothing. */
  resumeSubscription(subscriptionId: string): Promise<RemoteSubscription>;
  testConnection(): Promise<ConnectionReport>;
  /**
   * A link to the gateway's own invoice or receipt for the payment, asked for now (Paddle's links
   * expire after an hour); undefined when the gateway has none for it (unpaid, or of no value).
   */
  paymentDocumentUrl(payment: PaymentDocumentRef): Promise<string | undefined>;
  /**
   * A page of the gateway's customer portal where the subscriber enters a new card for the
   * subscription, made now (the gateways' portal links are short-lived). Paying a past-due
   * renewal with the new card is the gateway's business; its events book the recovery.
   * `returnUrl` is where the portal leads back to, for a gateway that takes one.
   */
  billingPortalUrl(subscriptionId: string, returnUrl: string): Promise<string>;
  /** What moving the subscription to another price would bill, as the gateway computes it (nothing changes). */
  previewPlanChange(change: PlanChange): Promise<PlanChangePreview>;
  /**
   * Moves the subscription to another price at the gateway. Money is the gateway's business and
   * reaches the ledger through its events (a proration payment), and so does the new plan.
   */
  changePlan(change: PlanChange): Promise<RemoteSubscription>;
  /**
   * Drops a plan change waiting at the gateway for the period end (Stripe's subscription schedule),
   * so the subscription can be cancelled or changed again; without one, changes nothing.
   */
  releasePlanChange(subscriptionId: string): Promise<RemoteSubscription>;
}
