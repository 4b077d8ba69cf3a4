import type { InboxEntry, WebhookInbox } from "../../../application/payments/inbox-ports.ts";

interface StoredEntry extends InboxEntry {
  readonly event_type: string;
  readonly kind: string;
}

/**
 * The webhook inbox in memory, unique per `(gateway, event_id)` like the real table. The event is
 * kept as JSON text and parsed on every read, as a `jsonb` column would give it back, so what a
 * test reads is what survived storage. `add` seeds an entry (say, one stored before the inbox kept
 * the normalized event); `snapshot` lets a fake unit of work roll back.
 */
export function createInMemoryWebhookInbox() {
  let entries = new Map<string, StoredEntry & { readonly json: string | null }>();
  const read = ({ json, ...entry }: StoredEntry & { readonly json: string | null }): StoredEntry => ({
    ...entry,
    event: json === null ? null : JSON.parse(json),
  });

  function add(entry: Partial<StoredEntry> & Pick<InboxEntry, "gateway" | "payload">): StoredEntry {
    const { event = null, ...rest } = entry;
    const stored = {
      id: crypto.randomUUID(),
      event_id: `evt_${crypto.randomUUID().slice(0, 8)}`,
      environment: "sandbox" as const,
      event_type: "unknown",
      kind: "unknown",
      processed_at: null,
      ...rest,
      event: null,
      json: event === null ? null : JSON.stringify(event),
    };
    entries.set(stored.id, stored);
    return read(stored);
  }

  const inbox: WebhookInbox = {
    async insert(entry) {
      const taken = [...entries.values()].some(
        (stored) => stored.gateway === entry.gateway && stored.event_id === entry.event_id,
      );
      if (taken) return { inserted: false };
      return { inserted: true, id: add(entry).id };
    },
    async find(id) {
      const stored = entries.get(id);
      return stored && read(stored);
    },
    async markProcessed(id) {
      const stored = entries.get(id);
      if (!stored || stored.processed_at) return false;
      entries.set(id, { ...stored, processed_at: new Date() });
      return true;
    },
  };

  return {
    ...inbox,
    add,
    /** Every entry as stored now, oldest first. */
    all: () => [...entries.values()].map(read),
    snapshot() {
      const saved = new Map(entries);
      return () => {
        entries = saved;
      };
    },
  };
}

export type InMemoryWebhookInbox = ReturnType<typeof createInMemoryWebhookInbox>;
