import type {
  NotificationOutbox,
  NotificationOutboxMessage,
  NotificationOutboxReader,
} from "../../../application/notifications/ports.ts";
import type { Clock } from "../../../application/shared/clock-and-log.ts";

interface StoredMessage extends NotificationOutboxMessage {
  readonly created_at: Date;
}

/** The notification outbox in memory: writer and reader, its ages measured on `clock`. */
export function createInMemoryNotificationOutbox(clock: Clock = () => new Date()) {
  let messages: StoredMessage[] = [];
  let keys = new Set<string>();
  const outbox: NotificationOutbox & NotificationOutboxReader = {
    async add(kind, payload) {
      const id = crypto.randomUUID();
      messages.push({ id, kind, payload, dispatched_at: null, created_at: clock() });
      return id;
    },
    async addOnce(kind, payload, key) {
      if (keys.has(key)) return undefined;
      keys = new Set(keys).add(key);
      return outbox.add(kind, payload);
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
      const saved = { messages: [...messages], keys };
      return () => {
        messages = saved.messages;
        keys = saved.keys;
      };
    },
  };
}

export type InMemoryNotificationOutbox = ReturnType<typeof createInMemoryNotificationOutbox>;
