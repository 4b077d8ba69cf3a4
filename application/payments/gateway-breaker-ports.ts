import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { BreakerRecord, BreakerState } from "../../domain/payments/gateway-breaker.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";

/** Where every instance keeps the breakers: one record per gateway and environment. */
export interface GatewayBreakerStore {
  /** The stored record; a closed breaker with no failures when there is none. */
  read(gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<BreakerRecord>;
  /**
   * Reads the record under a lock no other instance passes until `step`'s record is written, so
   * no count is lost to a concurrent one; returns `step`'s result.
   */
  change<T>(
    gateway: PaymentGatewayName,
    environment: GatewayEnvironment,
    step: (record: BreakerRecord) => { readonly record: BreakerRecord; readonly result: T },
  ): Promise<T>;
  list(): Promise<readonly (BreakerRecord & { gateway: PaymentGatewayName; environment: GatewayEnvironment })[]>;
}

/** A breaker as an operator reads it (the admin gateways page, `/metrics`). */
export interface GatewayBreakerView {
  readonly gateway: PaymentGatewayName;
  readonly environment: GatewayEnvironment;
  readonly state: BreakerState;
  readonly consecutive_failures: number;
  readonly opened_at: Date | null;
}

/** A ticket for one call the breaker let through: report how it went. */
export interface BreakerPass {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
  /** The call failed otherwise (refused, invalid): nothing counts, and a trial makes way for the next. */
  settled(): Promise<void>;
}

/** The gateways' circuit breakers, as a checkout and an operator use them. */
export interface GatewayBreakers {
  /**
   * Whether a call may go to the gateway now. Closed, it is a read; half-open, the one trial is
   * claimed under the lock, so only one instance's call goes through.
   */
  enter(
    gateway: PaymentGatewayName,
    environment: GatewayEnvironment,
  ): Promise<
    ({ readonly admitted: true } & BreakerPass) | { readonly admitted: false; readonly retryAfterSeconds: number }
  >;
  /** Whether a checkout could go through the gateway now (the breaker is not open). */
  usable(gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<boolean>;
  /** How long until the breaker lets a call through, when it would refuse one now; nothing is claimed. */
  waitFor(gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<number | undefined>;
  /** Every gateway's breaker in each environment; one never stored is closed. */
  list(): Promise<readonly GatewayBreakerView[]>;
}
