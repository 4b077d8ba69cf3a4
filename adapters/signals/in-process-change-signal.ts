import type { ChangeSignal } from "../../application/shared/ports.ts";

/** One process only: the embedded database is single-instance, and PGlite does not relay NOTIFY. */
export function createInProcessChangeSignal(): ChangeSignal {
  const listeners = new Map<string, Set<() => void>>();
  return {
    async publish(topic) {
      for (const listener of listeners.get(topic) ?? []) listener();
    },
    subscribe(topic, listener) {
      const set = listeners.get(topic) ?? new Set();
      set.add(listener);
      listeners.set(topic, set);
      return () => set.delete(listener);
    },
  };
}
