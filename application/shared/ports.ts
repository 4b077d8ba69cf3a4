export interface PageRequest {
  readonly limit: number;
  /** Opaque cursor from a previous page's `next_cursor`. */
  readonly cursor?: string;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly next_cursor: string | null;
}

/**
 * Tells every instance that something changed (cache invalidation). Delivery is best effort, so an
 * adapter also calls the listeners whenever delivery may have lapsed (after a reconnect).
 */
export interface ChangeSignal {
  publish(topic: string): Promise<void>;
  subscribe(topic: string, listener: () => void): () => void;
}

/** Mutual exclusion across every instance (a PostgreSQL advisory lock, or in-process when embedded). */
export interface Mutex {
  withLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Runs `work` only if nobody holds the lock right now; `ran` says whether it did. */
  tryWithLock(key: string, work: () => Promise<void>): Promise<{ ran: boolean }>;
}
