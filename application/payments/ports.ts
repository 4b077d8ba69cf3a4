import type { BillingInterval, Variant } from "../../domain/catalog/pricing.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { GatewayEnvironment, GatewayEvent } from "../../domain/payments/gateway-event.ts";
import { DomainError } from "../../domain/shared/domain-error.ts";
import type { ConnectionFailure } from "../shared/connection-check.ts";

/** The active environment's settings with secret values resolved, read at every call. */
export interface GatewayRuntimeSettings {
  readonly gateway: PaymentGatewayName;
  readonly environment: GatewayEnvironment;
  readonly base_url: string;
  readonly api_key: string;
  readonly client_key: string | null;
  /** Every secret a signature may be made with (the current one first). */
  readonly webhook_secrets: readonly string[];
  readonly webhook_tolerance_seconds: number;
  readonly timeout_seconds: number;
}

export interface GatewaySettingsSource {
  /** Throws `CredentialsNotFound` (upstream "gateway") when a referenced secret is missing. */
  resolve(gateway: PaymentGatewayName): Promise<GatewayRuntimeSettings>;
  activeEnvironment(gateway: PaymentGatewayName): Promise<GatewayEnvironment>;
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

export interface CheckoutSessionRequest {
  readonly order_id: string;
  readonly currency: string;
  readonly lines: readonly CheckoutLine[];
  readonly customer: { readonly id: string; readonly email: string; readonly name: string };
  readonly success_url: string;
  readonly cancel_url: string;
}

export interface CheckoutSession {
  readonly session_id: string;
  readonly url: string;
  readonly client_key?: string;
}

export interface WebhookRequest {
  /** Exactly the bytes received, undecoded: signatures are computed over them, and only then is the text read. */
  readonly rawBody: Uint8Array;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

export interface RefundResult {
  readonly refund_id: string;
  readonly status: "succeeded" | "pending" | "failed";
}

export interface RemoteSubscription {
  readonly subscription_id: string;
  readonly status: string;
  readonly trial_ends_at: string | null;
  readonly current_period_end: string | null;
  readonly cancelled_at: string | null;
}

export type ConnectionReport =
  | { readonly ok: true; readonly environment: GatewayEnvironment; readonly latency_ms: number }
  | ({ readonly ok: false; readonly environment: GatewayEnvironment | null } & ConnectionFailure);

/**
 * One payment gateway (spec 1, "Payment gateway" interface). Remote failures throw
 * `UpstreamError`s with upstream "gateway".
 */
export interface PaymentGateway {
  readonly name: PaymentGatewayName;
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /** Checks the signature over the raw bytes; throws `InvalidWebhookSignature`. */
  verifyWebhook(request: WebhookRequest): Promise<void>;
  /** Throws `InvalidWebhookPayload` when the body is not an event this gateway sends. */
  normalizeWebhookPayload(payload: unknown): GatewayEvent;
  refund(
    payment: { readonly payment_id: string; readonly order_id: string; readonly currency: string },
    amount: number | null,
  ): Promise<RefundResult>;
  getSubscription(subscriptionId: string): Promise<RemoteSubscription>;
  cancelSubscription(subscriptionId: string): Promise<RemoteSubscription>;
  testConnection(): Promise<ConnectionReport>;
}

export interface RemoteProduct {
  readonly id: string;
  readonly name: string;
  readonly marketplace_product_id: string | null;
}

export interface RemotePrice {
  readonly id: string;
  readonly product_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly billing_interval: BillingInterval | null;
  readonly variant: Variant | null;
  readonly active: boolean;
}

/** Products and prices at the gateway (gateway_a sync, spec 4.1). `undefined` means 404. */
export interface GatewayCatalog {
  findProductByMarketplaceId(marketplaceProductId: string): Promise<RemoteProduct | undefined>;
  getProduct(id: string): Promise<RemoteProduct | undefined>;
  createProduct(input: { marketplace_product_id: string; name: string; description: string }): Promise<RemoteProduct>;
  getPrice(id: string): Promise<RemotePrice | undefined>;
  createPrice(input: {
    product_id: string;
    marketplace_product_id: string;
    variant: Variant;
    amount: number;
    currency: string;
    billing_interval: BillingInterval | null;
    trial_days: number | null;
  }): Promise<RemotePrice>;
  /** Sets the amount of an existing price (a gateway with immutable prices replaces it and returns the new one). */
  updatePrice(price: RemotePrice, amount: number, currency: string): Promise<RemotePrice>;
}

export class InvalidWebhookSignature extends DomainError {
  readonly code = "INVALID_WEBHOOK_SIGNATURE";
  readonly category = "malformed";
  constructor(reason: string) {
    super(`The webhook signature is not valid: ${reason}.`);
  }
}

export class InvalidWebhookPayload extends DomainError {
  readonly code = "INVALID_WEBHOOK_PAYLOAD";
  readonly category = "malformed";
  constructor(reason: string) {
    super(`The webhook body is not a valid event: ${reason}.`);
  }
}

export type GatewayRefSlot = "product" | Variant;

export interface GatewayRef {
  readonly slot: GatewayRefSlot;
  readonly remote_id: string;
  /** The amount and currency a price was last synced with (null for the product slot). */
  readonly amount: number | null;
  readonly currency: string | null;
}

/** Gateway-side ids of products and prices, kept per environment (spec 4.1 rule 2). */
export interface GatewayProductRefs {
  list(productId: string, gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<GatewayRef[]>;
  put(productId: string, gateway: PaymentGatewayName, environment: GatewayEnvironment, ref: GatewayRef): Promise<void>;
}
