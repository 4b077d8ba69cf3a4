import type { Logger } from "../../kit/logger.ts";

export type GatewayName = "gateway_a" | "gateway_b";

const DELIVERY_TIMEOUT_MS = 5_000;
const BACKGROUND_ATTEMPTS = 3;
const KEPT_DELIVERIES = 200;

/** One webhook ready to send: the exact body and how to sign it at the moment it is sent. */
export interface OutgoingWebhook {
  readonly gateway: GatewayName;
  readonly eventId: string;
  readonly eventType: string;
  readonly body: string;
  /** The signature headers for `body` at `unixSeconds` (each attempt is signed afresh). */
  readonly sign: (body: string, unixSeconds: number) => Promise<Record<string, string>>;
}

export interface DeliveryOutcome {
  readonly delivered: boolean;
  /** The marketplace's HTTP status, or null when it could not be reached. */
  readonly status: number | null;
  readonly event_id: string;
}

export interface DeliveryRecord extends DeliveryOutcome {
  readonly gateway: GatewayName;
  readonly event_type: string;
  readonly attempts: number;
  readonly finished_at: string;
  readonly event: unknown;
}

export interface WebhookDeliverer {
  /** One attempt, awaited: what a scripted payment reports. */
  deliver(webhook: OutgoingWebhook): Promise<DeliveryOutcome>;
  /** Several webhooks in turn, one attempt each, awaited: what a scripted renewal reports. */
  deliverAll(webhooks: readonly OutgoingWebhook[]): Promise<DeliveryOutcome[]>;
  /** Up to three attempts a little apart, without holding up the caller. */
  deliverInBackground(webhook: OutgoingWebhook): void;
  /** As deliverInBackground, each webhook once the one before it is done, so they arrive in order. */
  deliverInOrder(webhooks: readonly OutgoingWebhook[]): void;
  /** The last deliveries, oldest first. */
  recent(): readonly DeliveryRecord[];
  /** Forgets the history and abandons pending retries. */
  clear(): void;
}

export interface WebhookDelivererDeps {
  readonly logger: Logger;
  /** Base URL of the marketplace; events go to `<url>/api/webhooks/<gateway>`. */
  readonly marketplaceUrl: string;
  /** Real time in ms: signatures carry wall-clock time, never the simulated clock. */
  readonly wallTime: () => number;
  readonly retryDelayMs?: number;
}

const succeeded = (status: number | null) => status !== null && status >= 200 && status < 300;

export function createWebhookDeliverer(deps: WebhookDelivererDeps): WebhookDeliverer {
  const retryDelayMs = deps.retryDelayMs ?? 1_000;
  let history: DeliveryRecord[] = [];
  let generation = 0;

  async function attempt(webhook: OutgoingWebhook, attemptNumber: number): Promise<number | null> {
    const url = `${deps.marketplaceUrl}/api/webhooks/${webhook.gateway}`;
    const log = { gateway: webhook.gateway, event_id: webhook.eventId, event_type: webhook.eventType, url };
    try {
      const headers = await webhook.sign(webhook.body, Math.floor(deps.wallTime() / 1000));
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: webhook.body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body?.cancel();
      deps.logger.info({ ...log, attempt: attemptNumber, status: response.status }, "gateway webhook answered");
      return response.status;
    } catch (error) {
      const reason = error instanceof Error ? error.name : "unknown";
      deps.logger.warn({ ...log, attempt: attemptNumber, reason }, "gateway webhook not delivered");
      return null;
    }
  }

  function record(webhook: OutgoingWebhook, status: number | null, attempts: number): DeliveryOutcome {
    const outcome = { delivered: succeeded(status), status, event_id: webhook.eventId };
    history.push({
      ...outcome,
      gateway: webhook.gateway,
      event_type: webhook.eventType,
      attempts,
      finished_at: new Date(deps.wallTime()).toISOString(),
      event: JSON.parse(webhook.body),
    });
    if (history.length > KEPT_DELIVERIES) history = history.slice(-KEPT_DELIVERIES);
    return outcome;
  }

  /** Stops early when the history is cleared (reset, shutdown) while it waits. */
  async function retrying(webhook: OutgoingWebhook, started: number) {
    for (let attemptNumber = 1; attemptNumber <= BACKGROUND_ATTEMPTS; attemptNumber += 1) {
      if (attemptNumber > 1) await Bun.sleep(retryDelayMs);
      if (generation !== started) return;
      const status = await attempt(webhook, attemptNumber);
      if (succeeded(status) || attemptNumber === BACKGROUND_ATTEMPTS) {
        if (generation === started) record(webhook, status, attemptNumber);
        return;
      }
    }
  }

  return {
    async deliver(webhook) {
      return record(webhook, await attempt(webhook, 1), 1);
    },
    async deliverAll(webhooks) {
      const outcomes: DeliveryOutcome[] = [];
      for (const webhook of webhooks) outcomes.push(record(webhook, await attempt(webhook, 1), 1));
      return outcomes;
    },
    deliverInBackground(webhook) {
      void retrying(webhook, generation);
    },
    deliverInOrder(webhooks) {
      const started = generation;
      void (async () => {
        for (const webhook of webhooks) await retrying(webhook, started);
      })();
    },
    recent: () => [...history],
    clear() {
      history = [];
      generation += 1;
    },
  };
}
