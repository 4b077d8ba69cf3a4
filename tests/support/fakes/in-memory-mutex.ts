import type { Mutex } from "../../../application/shared/ports.ts";

/**
 * The cross-instance lock in one process. `hold` plays another instance holding a key; while a
 * key is held, `tryWithLock` skips its work and `withLock` refuses (a real one would wait).
 */
export function createInMemoryMutex(): Mutex & { hold(key: string): () => void; readonly held: Set<string> } {
  const held = new Set<string>();
  const take = (key: string) => {
    held.add(key);
    return () => held.delete(key);
  };
  return {
    held,
    hold: take,
    async withLock(key, work) {
      if (held.has(key)) throw new Error(`${key} is held elsewhere; this fake does not wait`);
      const release = take(key);
      try {
        return await work();
      } finally {
        release();
      }
    },
    async tryWithLock(key, work) {
      if (held.has(key)) return { ran: false };
      const release = take(key);
      try {
        await work();
        return { ran: true };
      } finally {
        release();
      }
    },
  };
}
