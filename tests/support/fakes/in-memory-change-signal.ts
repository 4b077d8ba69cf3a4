import type { ChangeSignal } from "../../../application/shared/ports.ts";

/** One process's change signal that also remembers every topic published, in order. */
export function createInMemoryChangeSignal(): ChangeSignal & { readonly published: string[] } {
  const published: string[] = [];
  const listeners = new Map<string, Set<() => void>>();
  return {
    published,
    async publish(topic) {
      published.push(topic);
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
