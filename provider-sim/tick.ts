import { advancedTo } from "./tenant.ts";
import type { TenantStore } from "./tenant-store.ts";

/** One pass of simulated time over every tenant; returns how many changed. */
export function runTick(store: Pick<TenantStore, "all" | "save">, now: Date): number {
  let changed = 0;
  for (const record of store.all()) {
    const next = advancedTo(record, now);
    if (next === record) continue;
    store.save(next);
    changed += 1;
  }
  return changed;
}
