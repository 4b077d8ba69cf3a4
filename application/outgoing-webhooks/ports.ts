import type { SigningSecrets, WebhookDeliveryState } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import type { AuditLogWriter } from "../audit/ports.ts";
import type { JobScheduler } from "../shared/jobs.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import type { WebhookReplayRepository } from "./replay-ports.ts";

/** What the shop tells its own systems about, by outgoing webhook. */
export const OUTGOING_EVENT_TYPES = [
  "order.paid",
  "order.refunded",
  "order.needs_attention",
  "fulfillment.ready",
  "fulfillment.failed",
  "subscription.renewed",
  "subscription.cancelled",
  "subscription.payment_failed",
  "subscription.trial_ending",
  "subscription.plan_changed",
  "license.suspended",
  "license.reinstated",
  "license.reissued",
] as const;

export type OutgoingEventType = (typeof OUTGOING_EVENT_TYPES)[number];

/**
 * Publishes an event inside the caller's transaction: it is sent to the subscribed endpoints only
 * if the state change behind it commits. `data` holds ids and public fields, never a secret.
 */
export interface EventPublisher {
  publish(type: OutgoingEventType, data: Readonly<Record<string, unknown>>): Promise<void>;
}

/** A receiver of outgoing webhooks, as admins see it: never its secrets. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly events: readonly OutgoingEventType[];
  readonly description: string | null;
  /** Until then deliveries are signed with the rotated-out secret too. */
  readonly previous_secret_expires_at: Date | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface NewWebhookEndpoint {
  readonly url: string;
  readonly events: readonly OutgoingEventType[];
  readonly description: string | null;
  readonly secret: string;
}

export type WebhookEndpointChange = Partial<Pick<WebhookEndpoint, "url" | "events" | "description">>;

/** Endpoints with their secrets sealed at rest; a secret goes in in plain text and comes out only to sign. */
export interface WebhookEndpointRepository {
  create(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  find(id: string): Promise<WebhookEndpoint | undefined>;
  /** Newest first. */
  list(page: PageRequest): Promise<Page<WebhookEndpoint>>;
  update(id: string, change: WebhookEndpointChange): Promise<WebhookEndpoint | undefined>;
  /** Removes it and its deliveries; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** `secret` becomes the current one; the current one stays valid until `previousUntil`. */
  rotateSecret(id: string, secret: string, previousUntil: Date): Promise<WebhookEndpoint | undefined>;
}

/** One event for one endpoint, and how sending it went. */
export interface WebhookDelivery {
  readonly id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly event_type: OutgoingEventType;
  readonly state: WebhookDeliveryState;
  /** Attempts since it was made or last redelivered. */
  readonly attempts: number;
  /** How often an admin sent it again: each redelivery is a run of its own, with a job of its own. */
  readonly redeliveries: number;
  /** The replay that last sent it, if one did. */
  readonly replay_id: string | null;
  readonly last_status_code: number | null;
  readonly last_error: string | null;
  readonly last_attempt_at: Date | null;
  readonly delivered_at: Date | null;
  readonly created_at: Date;
}

/** Everything the delivery job sends: the delivery, its event, and its endpoint's address and secrets. */
export interface OutgoingMessage {
  readonly delivery: WebhookDelivery;
  readonly event: {
    readonly id: string;
    readonly type: OutgoingEventType;
    readonly data: Readonly<Record<string, unknown>>;
    readonly created_at: Date;
  };
  readonly url: string;
  readonly secrets: SigningSecrets;
}

/** One run of a delivery: it and how often it had been sent again when the run began. */
export type DeliveryRun = Pick<WebhookDelivery, "id" | "redeliveries">;

export interface AttemptRecord {
  readonly state: WebhookDeliveryState;
  readonly status_code: number | null;
  readonly error: string | null;
  readonly at: Date;
}

/** Which of an endpoint's deliveries a list shows: by state, by the replay that sent them, or all. */
export interface DeliveryFilter {
  readonly state?: WebhookDeliveryState;
  readonly replay_id?: string;
}

export interface WebhookDeliveryRepository {
  /**
   * One pending delivery of the event per endpoint subscribed to its type; a repeat creates none
   * twice. Returns the ids of the deliveries it created.
   */
  fanOut(eventId: string): Promise<string[]>;
  find(endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** Newest first. */
  list(endpointId: string, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>>;
  /** Undefined when the delivery is gone (its endpoint was deleted). */
  outgoing(deliveryId: string): Promise<OutgoingMessage | undefined>;
  /**
   * Counts one attempt of the run `run` names; `succeeded` also sets `delivered_at`. Nothing is
   * recorded once another run (a redelivery or a replay) took the delivery over.
   */
  recordAttempt(run: DeliveryRun, attempt: AttemptRecord): Promise<void>;
  /**
   * Back to `pending` with no attempts counted and one more redelivery, if it is still as `seen`
   * (same redeliveries) and nothing is trying it: it succeeded or is dead, or it is pending but the
   * job keyed `jobKey` is no longer queued or running (it ended without a verdict). Else undefined.
   */
  requeue(seen: WebhookDelivery, jobKey: string): Promise<WebhookDelivery | undefined>;
  /**
   * The delivery of the event to the replay's endpoint, made if there was none, taken over by the replay: back to
   * `pending` with no attempts, one more redelivery (so the run before sends nothing more) and
   * `replay_id` set. Undefined when the endpoint or the event is gone.
   */
  replayRun(replayId: string, eventId: string): Promise<WebhookDelivery | undefined>;
}

/** What endpoint changes and redeliveries write together: the change, its job and its audit entry. */
export interface WebhookScope {
  readonly endpoints: WebhookEndpointRepository;
  readonly deliveries: WebhookDeliveryRepository;
  readonly replays: WebhookReplayRepository;
  readonly jobs: JobScheduler;
  readonly audit: AuditLogWriter;
}

export interface WebhookUnitOfWork {
  run<T>(work: (scope: WebhookScope) => Promise<T>): Promise<T>;
}

/** One signed POST, as the Standard Webhooks specification describes it. */
export interface WebhookMessage {
  readonly url: string;
  /** `webhook-id`: the same for every attempt of one delivery. */
  readonly id: string;
  /** `webhook-timestamp`: this attempt's time. */
  readonly timestamp: Date;
  readonly body: string;
  /** Each signs the message; all signatures go in `webhook-signature`. */
  readonly secrets: readonly string[];
}

/**
 * How a receiver answered: its status and the start of its body (a short excerpt, never the whole
 * of it), or no answer at all: a time-out, a refused or reset connection, an address the
 * marketplace does not call (`permanent` when waiting cannot change that).
 */
export type WebhookAnswer =
  | {
      readonly kind: "answered";
      readonly status: number;
      readonly excerpt: string;
      /** The receiver's `Retry-After`, in milliseconds. */
      readonly retry_after_ms: number | null;
    }
  | { readonly kind: "failed"; readonly reason: string; readonly permanent: boolean };

export interface WebhookSender {
  send(message: WebhookMessage): Promise<WebhookAnswer>;
}
