import type { Page, PageRequest } from "../shared/ports.ts";

/**
 * Whether a replay still has events to send, has sent each once, was stopped by an admin, or was
 * given up on when its step job was dead-lettered.
 */
export const WEBHOOK_REPLAY_STATUSES = ["running", "completed", "cancelled", "failed"] as const;
export type WebhookReplayStatus = (typeof WEBHOOK_REPLAY_STATUSES)[number];

/** What an admin asked to be sent again: an endpoint's events created in `[since, until)`. */
export interface WebhookReplayWindow {
  readonly endpoint_id: string;
  readonly since: Date;
  readonly until: Date;
  /** Only the events whose delivery to the endpoint has not succeeded (dead, pending, or never made). */
  readonly only_failed: boolean;
}

/**
 * A replay and its progress. `total` is the number of events that matched when it was asked for;
 * `processed` how many it has sent a first time; `sent`, `failed` and `pending` count the
 * deliveries it sent by their state now (a delivery counts for the replay that last sent it).
 */
export interface WebhookReplay extends WebhookReplayWindow {
  readonly id: string;
  readonly status: WebhookReplayStatus;
  readonly total: number;
  readonly processed: number;
  readonly sent: number;
  readonly failed: number;
  readonly pending: number;
  readonly created_at: Date;
  readonly finished_at: Date | null;
  /** Why its step job gave up, when `failed`. */
  readonly last_error: string | null;
}

/** An event a replay sends. */
export interface ReplayEvent {
  readonly id: string;
}

export interface WebhookReplayRepository {
  /** A running replay of the window, its total counted; undefined when one runs on the endpoint. */
  start(window: WebhookReplayWindow): Promise<WebhookReplay | undefined>;
  find(endpointId: string, replayId: string): Promise<WebhookReplay | undefined>;
  /** The endpoint's replays, newest first. */
  list(endpointId: string, page: PageRequest): Promise<Page<WebhookReplay>>;
  /**
   * Starts a run of the replay's step: takes a new lease, so a run still going under the one before
   * stops at its next event. A `failed` replay runs again (its dead step job was redriven) unless
   * another replay of the endpoint runs now. Undefined once the replay is finished otherwise or is gone.
   */
  claim(replayId: string): Promise<number | undefined>;
  /**
   * Whether the replay still runs under `lease`, locking it until the transaction ends: a run that
   * checks this before sending never sends after another run took over, or after a cancel.
   */
  holds(replayId: string, lease: number): Promise<boolean>;
  /**
   * Up to `limit` events after the replay's cursor, oldest first (by creation time, then id), of
   * the types its endpoint subscribes to now; none once it is not running or is gone.
   */
  next(replayId: string, limit: number): Promise<ReplayEvent[]>;
  /**
   * Moves the cursor past `event` (to its creation time as stored, to the microsecond), counting it
   * processed; nothing when the event is gone.
   */
  advance(replayId: string, event: ReplayEvent): Promise<void>;
  complete(replayId: string, at: Date): Promise<void>;
  /**
   * Ends a running replay `failed` with `error`, when its step job gives up; under `lease` only, so
   * a run that another has taken over cannot fail the replay under it.
   */
  fail(replayId: string, at: Date, error: string, lease: number): Promise<void>;
  /** Stops a running replay of the endpoint; false when the endpoint has no running replay of this id. */
  cancel(endpointId: string, replayId: string, at: Date): Promise<boolean>;
}
