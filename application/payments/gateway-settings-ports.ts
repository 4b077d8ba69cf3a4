import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { TaxBehavior } from "../../domain/payments/payment.ts";
import type { AuditEntry } from "../audit/ports.ts";

export interface EnvironmentSettings {
  readonly base_url: string;
  readonly api_key_ref: string;
  readonly client_key_ref: string | null;
  readonly webhook_secret_ref: string;
  /** Still accepted on incoming webhooks while a new secret rolls out. */
  readonly previous_webhook_secret_ref: string | null;
}

export interface GatewaySettings {
  readonly gateway: PaymentGatewayName;
  readonly environment: GatewayEnvironment;
  readonly sandbox: EnvironmentSettings;
  readonly live: EnvironmentSettings;
  readonly webhook_tolerance_seconds: number;
  readonly timeout_seconds: number;
  /** Stated on every price created at the gateway from now on; orders keep the one they were sold under. */
  readonly tax_behavior: TaxBehavior;
}

export interface GatewaySettingsRepository {
  /** The stored settings, or the defaults from the environment when nothing is stored. */
  get(gateway: PaymentGatewayName): Promise<GatewaySettings>;
  /** With `audit`, its entry is written in the transaction that saves the settings. */
  save(settings: GatewaySettings, audit?: AuditEntry): Promise<void>;
}

export const GATEWAY_SETTINGS_TOPIC = "gateway_settings";
