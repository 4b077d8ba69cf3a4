import { PAYMENT_GATEWAYS, type PaymentGatewayName } from "../../domain/catalog/product.ts";
import {
  type Admission,
  admit,
  type BreakerPolicy,
  type BreakerRecord,
  type BreakerState,
  breakerState,
  CLOSED_BREAKER,
  recordFailure,
  recordSuccess,
  releaseTrial,
} from "../../domain/payments/gateway-breaker.ts";
import { GATEWAY_ENVIRONMENTS, type GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import { UpstreamError, UpstreamUrlNotAllowed } from "../shared/errors.ts";

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

/**
 * A failure that says the gateway is down or overloaded, not that it refused the request: time-out,
 * no connection, 5xx, 429, an answer that is not what the API promises. Only these count towards
 * the breaker and send a checkout elsewhere; a 4xx or our own refusal would fail there too.
 */
export function isGatewayOutage(error: unknown): error is UpstreamError {
  return (
    error instanceof UpstreamError &&
    error.upstream === "gateway" &&
    error.transient &&
    !(error instanceof UpstreamUrlNotAllowed)
  );
}

/** A ticket for one call the breaker let through: report how it went. */
export interface BreakerPass {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
  /** The call failed otherwise (refused, invalid): nothing counts, and a trial makes way for the next. */
  settled(): Promise<void>;
}

export function makeGatewayBreakers(deps: { store: GatewayBreakerStore; policy: BreakerPolicy; clock: Clock }) {
  const { store, policy, clock } = deps;
  const pass = (gateway: PaymentGatewayName, environment: GatewayEnvironment, seen: BreakerRecord): BreakerPass => ({
    // A success after a clean record writes nothing: the common checkout costs one read.
    succeeded: async () => {
      if (seen.consecutive_failures === 0 && seen.opened_at === null) return;
      await store.change(gateway, environment, (record) => ({ record: recordSuccess(record), result: undefined }));
    },
    failed: () =>
      store.change(gateway, environment, (record) => ({
        record: recordFailure(record, policy, clock()),
        result: undefined,
      })),
    settled: async () => {
      if (seen.trial_started_at === null) return;
      await store.change(gateway, environment, (record) => ({ record: releaseTrial(record), result: undefined }));
    },
  });

  return {
    /**
     * Whether a call may go to the gateway now. Closed, it is a read; half-open, the one trial is
     * claimed under the lock, so only one instance's call goes through.
     */
    async enter(
      gateway: PaymentGatewayName,
      environment: GatewayEnvironment,
    ): Promise<({ readonly admitted: true } & BreakerPass) | Extract<Admission, { admitted: false }>> {
      const seen = await store.read(gateway, environment);
      const first = admit(seen, policy, clock());
      if (!first.admitted) return first;
      if (first.record === seen) return { admitted: true, ...pass(gateway, environment, seen) };
      const claimed = await store.change(gateway, environment, (record) => {
        const admission = admit(record, policy, clock());
        return { record: admission.admitted ? admission.record : record, result: admission };
      });
      return claimed.admitted ? { admitted: true, ...pass(gateway, environment, claimed.record) } : claimed;
    },

    /** Whether a checkout could go through the gateway now (the breaker is not open). */
    async usable(gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<boolean> {
      return breakerState(await store.read(gateway, environment), policy, clock()) !== "open";
    },

    /** How long until the breaker lets a call through, when it would refuse one now; nothing is claimed. */
    async waitFor(gateway: PaymentGatewayName, environment: GatewayEnvironment): Promise<number | undefined> {
      const admission = admit(await store.read(gateway, environment), policy, clock());
      return admission.admitted ? undefined : admission.retryAfterSeconds;
    },

    /** Every gateway's breaker in each environment; one never stored is closed. */
    async list(): Promise<readonly GatewayBreakerView[]> {
      const now = clock();
      const stored = await store.list();
      return PAYMENT_GATEWAYS.flatMap((gateway) =>
        GATEWAY_ENVIRONMENTS.map((environment) => {
          const record =
            stored.find((row) => row.gateway === gateway && row.environment === environment) ?? CLOSED_BREAKER;
          return {
            gateway,
            environment,
            state: breakerState(record, policy, now),
            consecutive_failures: record.consecutive_failures,
            opened_at: record.opened_at,
          };
        }),
      );
    },
  };
}

export type GatewayBreakers = ReturnType<typeof makeGatewayBreakers>;
