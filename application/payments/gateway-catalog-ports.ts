import type { BillingInterval } from "../../domain/catalog/pricing.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { Variant } from "../../domain/catalog/variants.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { TaxBehavior } from "../../domain/payments/payment.ts";
import type { AuditEntry } from "../audit/ports.ts";

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
  /** What the price says of tax; null when it leaves it to an account setting. */
  readonly tax_behavior: TaxBehavior | null;
}

/** Products and prices at the gateway (what gateway_a's catalog sync reads and writes). `undefined` means 404. */
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
    tax_behavior: TaxBehavior;
  }): Promise<RemotePrice>;
  /** Sets the terms of an existing price (a gateway with immutable prices replaces it and returns the new one). */
  updatePrice(
    price: RemotePrice,
    terms: { amount: number; currency: string; tax_behavior: TaxBehavior },
  ): Promise<RemotePrice>;
}

export type GatewayRefSlot = "product" | Variant;

export interface GatewayRef {
  readonly slot: GatewayRefSlot;
  readonly remote_id: string;
  /** The amount and currency a price was last synced with (null for the product slot). */
  readonly amount: number | null;
  readonly currency: string | null;
  /** How the price treats tax (null for the product slot). */
  readonly tax_behavior: TaxBehavior | null;
}

/** Gateway-side ids of products and prices, kept per environment: sandbox ids never name live prices. */
export interface GatewayProductRefs {
  list(productId: string, gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<GatewayRef[]>;
  /** With `audit`, its entry is written in the transaction that stores the ref. */
  put(
    productId: string,
    gateway: PaymentGatewayName,
    environment: GatewayEnvironment,
    ref: GatewayRef,
    audit?: AuditEntry,
  ): Promise<void>;
}

/**
 * The ids a gateway gave a discount code, per environment and slot (what the gateway needs told
 * apart, such as how many periods it recurs for). Only gateways that name discounts themselves
 * need them: Stripe's coupon is named by the marketplace.
 */
export interface GatewayDiscountRefs {
  find(
    discountId: string,
    gateway: PaymentGatewayName,
    environment: GatewayEnvironment,
    slot: string,
  ): Promise<string | undefined>;
  /** Stores the id unless one is stored already; returns the id stored (the first one, on a race). */
  put(
    discountId: string,
    gateway: PaymentGatewayName,
    environment: GatewayEnvironment,
    slot: string,
    remoteId: string,
  ): Promise<string>;
  list(discountId: string, gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<string[]>;
}
