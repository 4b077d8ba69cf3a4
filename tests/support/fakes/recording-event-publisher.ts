import type { EventPublisher, OutgoingEventType } from "../../../application/outgoing-webhooks/ports.ts";

export interface PublishedEvent {
  readonly type: OutgoingEventType;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Published events in memory, in order; rolled back with the unit of work. */
export function createRecordingEventPublisher() {
  let events: PublishedEvent[] = [];
  const publisher: EventPublisher = {
    async publish(type, data) {
      events.push({ type, data });
    },
  };
  return {
    ...publisher,
    all: () => [...events],
    ofType: (type: OutgoingEventType) => events.filter((event) => event.type === type),
    snapshot() {
      const saved = [...events];
      return () => {
        events = saved;
      };
    },
  };
}

export type RecordingEventPublisher = ReturnType<typeof createRecordingEventPublisher>;
