import { expect, test } from "bun:test";
import { openDatabase } from "../../../adapters/postgres/database.ts";
import { createPostgresGatewayBreakerStore } from "../../../adapters/postgres/gateway-breaker-store.ts";
import { makeGatewayBreakers } from "../../../application/payments/gateway-breakers.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const policy = { failures: 1000, cooldownMs: 30_000, trialLeaseMs: 60_000 };

test.skipIf(!hasRealPostgres)("failures reported at once through two pools are every one counted", async () => {
  const other = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 10 });
  try {
    const instances = [db.current.sql, other.sql].map((sql) =>
      makeGatewayBreakers({ store: createPostgresGatewayBreakerStore(sql), policy, clock: () => new Date() }),
    );
    const passes = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const admission = await (instances[i % 2] as (typeof instances)[number]).enter("gateway_a", "live");
        if (!admission.admitted) throw new Error("a closed breaker refused a call");
        return admission;
      }),
    );
    await Promise.all(passes.map((pass) => pass.failed()));
    const [breaker] =
      (await instances[0]?.list())?.filter((b) => b.gateway === "gateway_a" && b.environment === "live") ?? [];
    expect(breaker).toMatchObject({ state: "closed", consecutive_failures: 40 });
  } finally {
    await other.close(1);
  }
});

test.skipIf(!hasRealPostgres)(
  "a half-open breaker lets one trial through across instances, and its success closes it",
  async () => {
    let now = new Date("2026-11-29T12:00:00Z");
    const store = createPostgresGatewayBreakerStore(db.current.sql);
    const breakers = makeGatewayBreakers({ store, policy: { ...policy, failures: 1 }, clock: () => now });
    const first = await breakers.enter("gateway_b", "sandbox");
    if (!first.admitted) throw new Error("a closed breaker refused a call");
    await first.failed();
    expect(await breakers.enter("gateway_b", "sandbox")).toEqual({ admitted: false, retryAfterSeconds: 30 });
    now = new Date("2026-11-29T12:00:31Z");
    const trials = await Promise.all(Array.from({ length: 10 }, () => breakers.enter("gateway_b", "sandbox")));
    const admitted = trials.filter((trial) => trial.admitted);
    expect(admitted).toHaveLength(1);
    await (admitted[0] as { succeeded(): Promise<void> }).succeeded();
    const [breaker] = (await breakers.list()).filter((b) => b.gateway === "gateway_b" && b.environment === "sandbox");
    expect(breaker).toEqual({
      gateway: "gateway_b",
      environment: "sandbox",
      state: "closed",
      consecutive_failures: 0,
      opened_at: null,
    });
  },
);
