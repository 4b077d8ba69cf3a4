import type { Outbox, OutboxMessage, OutboxReader } from "../../../application/notifications/ports.ts";
import type { Clock } from "../../../application/shared/runtime.ts";

interface StoredMessage extends OutboxMessage {
  readonly created_at: Date;
}

/** The notification outbox in memory: writer and reader, its ages measured on `clock`. */
export function createInMemoryOutbox(clock: Clock = () => new Date()) {
  let messages: StoredMessage[] = [];
  const outbox: Outbox & OutboxReader = {
    async add(kind, payload) {
      const id = crypto.randomUUID();
      messages.push({ id, kind, payload, dispatched_at: null, created_at: clock() });
      return id;
    },
    find: async (id) => messages.find((message) => message.id === id),
    async markDispatched(id) {
      messages = messages.map((message) => (message.id === id ? { ...message, dispatched_at: clock() } : message));
    },
    async stale(olderThanSeconds, limit) {
      const before = clock().getTime() - olderThanSeconds * 1000;
      return messages
        .filter((message) => message.dispatched_at === null && message.created_at.getTime() < before)
        .slice(0, limit);
    },
  };
  return {
    ...outbox,
    all: () => [...messages],
    snapshot() {
      const saved = [...messages];
      return () => {
        messages = saved;
      };
    },
  };
}

export type InMemoryOutbox = ReturnType<typeof createInMemoryOutbox>;
