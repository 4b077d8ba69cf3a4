import { PAYMENT_GATEWAYS, type PaymentGatewayName } from "../../domain/catalog/product.ts";
import {
  admit,
  type BreakerPolicy,
  type BreakerRecord,
  breakerState,
  CLOSED_BREAKER,
  recordFailure,
  recordSuccess,
  releaseTrial,
} from "../../domain/payments/gateway-breaker.ts";
import { GATEWAY_ENVIRONMENTS, type GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { BreakerPass, GatewayBreakerStore, GatewayBreakers } from "./gateway-breaker-ports.ts";

/** The breakers by the rules of `domain/payments/gateway-breaker.ts`, kept in `store`. */
export function makeGatewayBreakers(deps: {
  store: GatewayBreakerStore;
  policy: BreakerPolicy;
  clock: Clock;
}): GatewayBreakers {
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
    async enter(gateway, environment) {
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
    async usable(gateway, environment) {
      return breakerState(await store.read(gateway, environment), policy, clock()) !== "open";
    },

    /** How long until the breaker lets a call through, when it would refuse one now; nothing is claimed. */
    async waitFor(gateway, environment) {
      const admission = admit(await store.read(gateway, environment), policy, clock());
      return admission.admitted ? undefined : admission.retryAfterSeconds;
    },

    /** Every gateway's breaker in each environment; one never stored is closed. */
    async list() {
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
