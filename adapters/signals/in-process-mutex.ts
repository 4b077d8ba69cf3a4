import type { Mutex } from "../../application/shared/ports.ts";

/** One process only (embedded mode): a promise chain per key. */
export function createInProcessMutex(): Mutex {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async withLock(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      const run = previous.catch(() => {}).then(work);
      tails.set(key, run);
      try {
        return await run;
      } finally {
        if (tails.get(key) === run) tails.delete(key);
      }
    },
    async tryWithLock(key, work) {
      if (tails.has(key)) return { ran: false };
      await this.withLock(key, work);
      return { ran: true };
    },
  };
}
