import { Gauge, type Registry } from "prom-client";
import type { GatewayBreakerView } from "../../application/payments/gateway-breaker-ports.ts";

const STATES = ["closed", "half_open", "open"] as const;

/**
 * Each gateway's circuit breaker per environment: its state as one series per state (1 for the
 * current one, as Prometheus encodes an enumeration), and the outages in a row it has counted.
 */
export function createBreakerGauges(registry: Registry) {
  const state = new Gauge({
    name: "marketplace_gateway_breaker_state",
    help: "The checkout circuit breaker of a gateway and environment: 1 for its current state (closed, half_open, open).",
    labelNames: ["gateway", "environment", "state"] as const,
    registers: [registry],
  });
  const failures = new Gauge({
    name: "marketplace_gateway_breaker_consecutive_failures",
    help: "Outages in a row a gateway's breaker has counted since its last success.",
    labelNames: ["gateway", "environment"] as const,
    registers: [registry],
  });
  return {
    show(breakers: readonly GatewayBreakerView[]) {
      for (const breaker of breakers) {
        const labels = { gateway: breaker.gateway, environment: breaker.environment };
        for (const each of STATES) state.set({ ...labels, state: each }, each === breaker.state ? 1 : 0);
        failures.set(labels, breaker.consecutive_failures);
      }
    },
  };
}
