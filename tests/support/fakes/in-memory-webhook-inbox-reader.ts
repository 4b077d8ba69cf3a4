import type { InboxEntry, NewInboxEntry, WebhookInboxReader } from "../../../application/payments/inbox-ports.ts";

interface StoredEntry extends InboxEntry {
  readonly event_type: string;
  readonly kind: string;
}

type Row = Omit<StoredEntry, "event"> & { readonly json: string };

/**
 * The webhook inbox in memory, unique per `(gateway, event_id)` like the real table. The event is
 * kept as JSON text and parsed on every read, as a `jsonb` column would give it back, so what a
 * test reads is what survived storage. `add` seeds an entry; `store` is the intake's insert;
 * `snapshot` lets a fake unit of work roll back.
 */
export function createInMemoryWebhookInboxReader() {
  let entries = new Map<string, Row>();
  const read = ({ json, ...entry }: Row): StoredEntry => ({ ...entry, event: JSON.parse(json) });

  function add(entry: Partial<StoredEntry> & Pick<InboxEntry, "gateway" | "payload" | "event">): StoredEntry {
    const { event, ...rest } = entry;
    const stored: Row = {
      id: crypto.randomUUID(),
      event_id: `evt_${crypto.randomUUID().slice(0, 8)}`,
      environment: "sandbox" as const,
      event_type: "unknown",
      kind: "unknown",
      processed_at: null,
      ...rest,
      json: JSON.stringify(event),
    };
    entries.set(stored.id, stored);
    return read(stored);
  }

  /** Stores a new entry, or nothing when its `(gateway, event_id)` is already there: what the intake does. */
  function store(entry: NewInboxEntry): { inserted: true; id: string } | { inserted: false } {
    const taken = [...entries.values()].some(
      (stored) => stored.gateway === entry.gateway && stored.event_id === entry.event_id,
    );
    return taken ? { inserted: false } : { inserted: true, id: add(entry).id };
  }

  const inbox: WebhookInboxReader = {
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
    store,
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

export type InMemoryWebhookInboxReader = ReturnType<typeof createInMemoryWebhookInboxReader>;
