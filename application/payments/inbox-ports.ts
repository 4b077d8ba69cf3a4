import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { StoredGatewayEvent } from "../../domain/payments/gateway-event-codec.ts";

export interface InboxEntry {
  readonly id: string;
  readonly gateway: string;
  readonly event_id: string;
  /** The environment whose webhook secret signed the event (null for events stored before this was kept). */
  readonly environment: GatewayEnvironment | null;
  /** The body exactly as received, kept for audit. */
  readonly payload: string;
  /**
   * The event as normalized when it arrived (`encodeGatewayEvent`); null for entries stored before
   * it was kept, whose raw payload is normalized by the job instead.
   */
  readonly event: StoredGatewayEvent | null;
  readonly processed_at: Date | null;
}

export interface WebhookInbox {
  /** False when the event was already received: nothing else should happen. */
  insert(entry: {
    gateway: string;
    event_id: string;
    environment: GatewayEnvironment;
    event_type: string;
    kind: string;
    payload: string;
    event: StoredGatewayEvent;
  }): Promise<{ inserted: true; id: string } | { inserted: false }>;
  find(id: string): Promise<InboxEntry | undefined>;
  markProcessed(id: string): Promise<void>;
}
