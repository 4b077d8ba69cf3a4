import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { StoredGatewayEvent } from "../../domain/payments/gateway-event-codec.ts";
import type { NewJob } from "../shared/jobs.ts";

export interface InboxEntry {
  readonly id: string;
  readonly gateway: string;
  readonly event_id: string;
  /** The environment whose webhook secret signed the event (null for events stored before this was kept). */
  readonly environment: GatewayEnvironment | null;
  /** The body exactly as received, kept for audit. */
  readonly payload: string;
  /** The event as normalized when it arrived (`encodeGatewayEvent`). */
  readonly event: StoredGatewayEvent;
  readonly processed_at: Date | null;
}

/** The stored entries as the payment job reads them; they are written by `WebhookIntake`. */
export interface WebhookInbox {
  find(id: string): Promise<InboxEntry | undefined>;
  /**
   * Marks an entry processed unless it already is, holding it until the transaction ends (a second
   * caller waits, then finds it processed): true when this call marked it.
   */
  markProcessed(id: string): Promise<boolean>;
}

/** A verified, normalized event as the inbox stores it. */
export interface NewInboxEntry {
  readonly gateway: string;
  readonly event_id: string;
  readonly environment: GatewayEnvironment;
  readonly event_type: string;
  readonly kind: string;
  /** The body exactly as received. */
  readonly payload: string;
  readonly event: StoredGatewayEvent;
}

/**
 * Where verified webhooks are stored. `accept` resolves once the entry is committed (and, for a
 * new entry with a `jobFor`, the job it returns for the entry's id, in the same transaction), so an
 * acknowledgement never precedes durability. An event already stored, or accepted twice at once,
 * is a duplicate for every caller but one and enqueues nothing. Concurrent calls may share one
 * transaction; a failure of one entry never fails another's. A rejection means nothing of the entry
 * was stored, unless the connection was lost during the commit, when neither side can know: the
 * gateway's retry then finds it stored (a duplicate) or stores it.
 */
export interface WebhookIntake {
  accept(entry: NewInboxEntry, jobFor: ((inboxId: string) => NewJob) | null): Promise<{ duplicate: boolean }>;
}
