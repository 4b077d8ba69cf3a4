import type { IdempotencyBegin, IdempotencyStore } from "../../../application/checkout/ports.ts";

interface Entry {
  readonly requestHash: string;
  readonly state: "in_progress" | "completed";
  readonly status?: number;
  readonly response?: unknown;
}

/**
 * Idempotency keys per customer in memory. The response is stored as JSON, as the real store does,
 * so a replay returns an equal copy. Unlike the real store, an abandoned in-progress key never goes stale.
 */
export function createInMemoryIdempotencyStore(): IdempotencyStore & {
  readonly entries: ReadonlyMap<string, Entry>;
} {
  const entries = new Map<string, Entry>();
  const id = (customerId: string, key: string) => `${customerId}\u0000${key}`;
  return {
    entries,
    async begin(customerId, key, requestHash): Promise<IdempotencyBegin> {
      const existing = entries.get(id(customerId, key));
      if (!existing) {
        entries.set(id(customerId, key), { requestHash, state: "in_progress" });
        return { state: "new" };
      }
      if (existing.requestHash !== requestHash) return { state: "mismatch" };
      if (existing.state === "in_progress") return { state: "in_progress" };
      return { state: "completed", status: existing.status ?? 200, response: JSON.parse(String(existing.response)) };
    },
    async complete(customerId, key, status, response) {
      const existing = entries.get(id(customerId, key));
      if (!existing) return;
      entries.set(id(customerId, key), { ...existing, state: "completed", status, response: JSON.stringify(response) });
    },
    async abandon(customerId, key) {
      if (entries.get(id(customerId, key))?.state === "in_progress") entries.delete(id(customerId, key));
    },
  };
}
