import type { Logger } from "../adapters/logging/logger.ts";
import { createProviderSimApp } from "./app.ts";
import { createSimClock } from "./clock.ts";
import type { ProviderSimConfig } from "./config.ts";
import { createFaultQueue } from "./faults.ts";
import { createTenantStore } from "./tenant-store.ts";
import { runTick } from "./tick.ts";

/** Builds the simulator from its configuration; main and the tests share this wiring. */
export function wireProviderSim(options: {
  readonly config: ProviderSimConfig;
  readonly logger: Logger;
  readonly wallTime?: () => number;
}) {
  const { config, logger } = options;
  const wallTime = options.wallTime ?? Date.now;
  const clock = createSimClock(wallTime);
  const store = createTenantStore({ plans: config.plans, clock });
  const faults = createFaultQueue();
  const app = createProviderSimApp({
    logger,
    clock,
    wallTime,
    store,
    faults,
    token: config.token,
    hmacSecret: config.hmacSecret,
    controls: config.controls,
    publicUrl: config.publicUrl,
  });
  return { app, clock, store, faults, tick: () => runTick(store, clock.now()) };
}
