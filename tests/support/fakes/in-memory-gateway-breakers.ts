import type { GatewayBreakerStore } from "../../../application/payments/gateway-breaker-ports.ts";
import { makeGatewayBreakers } from "../../../application/payments/gateway-breakers.ts";
import { type BreakerRecord, CLOSED_BREAKER } from "../../../domain/payments/gateway-breaker.ts";

/** The breakers' records in a map: each change runs whole before the next, as under the row lock. */
export function createInMemoryGatewayBreakerStore(): GatewayBreakerStore & {
  readonly records: Map<string, BreakerRecord>;
} {
  const records = new Map<string, BreakerRecord>();
  const key = (gateway: string, environment: string) => `${gateway}|${environment}`;
  return {
    records,
    read: async (gateway, environment) => records.get(key(gateway, environment)) ?? CLOSED_BREAKER,
    async change(gateway, environment, step) {
      const { record, result } = step(records.get(key(gateway, environment)) ?? CLOSED_BREAKER);
      records.set(key(gateway, environment), record);
      return result;
    },
    list: async () =>
      [...records.entries()].map(([name, record]) => {
        const [gateway, environment] = name.split("|") as ["gateway_a" | "gateway_b", "sandbox" | "live"];
        return { ...record, gateway, environment };
      }),
  };
}

/** Breakers opening after `failures` outages and staying open for `cooldownMs`, kept in memory. */
export function createInMemoryGatewayBreakers(clock: () => Date, failures = 5, cooldownMs = 30_000) {
  const store = createInMemoryGatewayBreakerStore();
  return {
    store,
    breakers: makeGatewayBreakers({ store, policy: { failures, cooldownMs, trialLeaseMs: 360_000 }, clock }),
  };
}
