import type { GatewayBreakerStore } from "../../application/payments/gateway-breaker-ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { type BreakerRecord, CLOSED_BREAKER } from "../../domain/payments/gateway-breaker.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { Sql } from "./database.ts";

/** The breakers in `gateway_breakers`: a change holds the row's lock from its read to its write. */
export function createPostgresGatewayBreakerStore(sql: Sql): GatewayBreakerStore {
  return {
    async read(gateway, environment) {
      const [row] = await sql<BreakerRecord[]>`
        select consecutive_failures, opened_at, trial_started_at from gateway_breakers
        where gateway = ${gateway} and environment = ${environment}`;
      return row ?? CLOSED_BREAKER;
    },

    async change(gateway, environment, step) {
      const outcome = await sql.begin(async (tx) => {
        // The row first exists, so that `for update` has something to lock on a breaker's first failure.
        await tx`
          insert into gateway_breakers (gateway, environment) values (${gateway}, ${environment})
          on conflict do nothing`;
        const [current] = await tx<BreakerRecord[]>`
          select consecutive_failures, opened_at, trial_started_at from gateway_breakers
          where gateway = ${gateway} and environment = ${environment} for update`;
        const { record, result } = step(current ?? CLOSED_BREAKER);
        await tx`
          update gateway_breakers set consecutive_failures = ${record.consecutive_failures},
            opened_at = ${record.opened_at}, trial_started_at = ${record.trial_started_at}, updated_at = now()
          where gateway = ${gateway} and environment = ${environment}`;
        return [result];
      });
      return outcome[0] as Awaited<ReturnType<typeof step>>["result"];
    },

    list: () =>
      sql<(BreakerRecord & { gateway: PaymentGatewayName; environment: GatewayEnvironment })[]>`
        select gateway, environment, consecutive_failures, opened_at, trial_started_at from gateway_breakers
        order by gateway, environment`,
  };
}
