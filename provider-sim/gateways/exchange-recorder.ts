import { decodeUtf8 } from "../../kit/body-parser.ts";
import { rawBodyOf } from "../raw-body.ts";
import { decodeFormBody } from "./form-body.ts";
import type { GatewayName, OutgoingWebhook, WebhookDeliverer } from "./webhook-deliverer.ts";

const DEFAULT_CAPACITY = 2_000;

/** One call to a sandbox API, as both sides saw it: bodies decoded the way the gateway reads them. */
export interface RecordedCall {
  readonly seq: number;
  readonly kind: "call";
  readonly gateway: GatewayName;
  readonly method: string;
  /** The route with its parameters named, under the gateway's own root: `/v1/checkout/sessions/{id}`. */
  readonly route: string;
  readonly path: string;
  /** Stripe's query decoded like its form bodies; Paddle's as the flat strings it sent. */
  readonly query: unknown;
  /** Stripe's form body decoded into nested objects and arrays; Paddle's JSON; null when empty. */
  readonly request: unknown;
  readonly status: number;
  readonly response: unknown;
}

/** One event the sandbox handed to the marketplace's webhook endpoint, recorded once however often it was sent. */
export interface RecordedWebhook {
  readonly seq: number;
  readonly kind: "webhook";
  readonly gateway: GatewayName;
  readonly event_type: string;
  readonly event: unknown;
}

export type RecordedExchange = RecordedCall | RecordedWebhook;

export interface ExchangeRecorder {
  readonly recording: boolean;
  setRecording(on: boolean): void;
  /** Oldest first; `dropped` counts what fell out when more than the capacity was kept. */
  entries(): { readonly exchanges: readonly RecordedExchange[]; readonly dropped: number };
  recordCall(call: Omit<RecordedCall, "seq" | "kind">): void;
  recordWebhook(webhook: OutgoingWebhook): void;
  clear(): void;
}

/** Keeps what the sandboxes said and heard while recording is on (off by default), up to `capacity`. */
export function createExchangeRecorder(options: { readonly capacity?: number } = {}): ExchangeRecorder {
  const capacity = options.capacity ?? DEFAULT_CAPACITY;
  let recording = false;
  let kept: RecordedExchange[] = [];
  let dropped = 0;
  let seq = 0;
  const keep = (exchange: RecordedExchange) => {
    kept.push(exchange);
    if (kept.length > capacity) {
      dropped += kept.length - capacity;
      kept = kept.slice(-capacity);
    }
  };
  return {
    get recording() {
      return recording;
    },
    setRecording(on) {
      recording = on;
    },
    entries: () => ({ exchanges: [...kept], dropped }),
    recordCall(call) {
      if (recording) keep({ seq: ++seq, kind: "call", ...call });
    },
    recordWebhook(webhook) {
      if (!recording) return;
      const event = parsedJson(webhook.body);
      keep({ seq: ++seq, kind: "webhook", gateway: webhook.gateway, event_type: webhook.eventType, event });
    },
    clear() {
      kept = [];
      dropped = 0;
    },
  };
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function decodedBody(gateway: GatewayName, raw: Uint8Array): unknown {
  if (raw.byteLength === 0) return null;
  let text: string;
  try {
    text = decodeUtf8(raw);
  } catch {
    return null;
  }
  return gateway === "gateway_b" ? (decodeFormBody(text) ?? text) : parsedJson(text);
}

function decodedQuery(gateway: GatewayName, url: URL): unknown {
  if (gateway === "gateway_b") return decodeFormBody(url.search.slice(1)) ?? url.search;
  return Object.fromEntries(url.searchParams);
}

const GATEWAY_ROUTE = /^\/(gateway_a|gateway_b)(\/.*)$/;

/**
 * An Elysia `onAfterHandle` hook for the sandbox APIs: records each answered call while recording
 * is on. Other routes on the same instance (the hosted checkout pages) are left out.
 */
export function recordSandboxCalls(recorder: ExchangeRecorder) {
  return (context: { request: Request; route: string; set: { status?: number | string }; responseValue: unknown }) => {
    if (!recorder.recording) return;
    const match = GATEWAY_ROUTE.exec(context.route);
    if (!match) return;
    const gateway = match[1] as GatewayName;
    const url = new URL(context.request.url);
    recorder.recordCall({
      gateway,
      method: context.request.method,
      route: (match[2] as string).replace(/:(\w+)/g, "{$1}"),
      path: url.pathname.slice(gateway.length + 1),
      query: decodedQuery(gateway, url),
      request: decodedBody(gateway, rawBodyOf(context.request)),
      status: Number(context.set.status ?? 200),
      response: JSON.parse(JSON.stringify(context.responseValue ?? null)),
    });
  };
}

/** `deliverer`, with every webhook it is handed recorded first. */
export function recordingWebhooks(deliverer: WebhookDeliverer, recorder: ExchangeRecorder): WebhookDeliverer {
  return {
    ...deliverer,
    deliver(webhook) {
      recorder.recordWebhook(webhook);
      return deliverer.deliver(webhook);
    },
    deliverAll(webhooks) {
      for (const webhook of webhooks) recorder.recordWebhook(webhook);
      return deliverer.deliverAll(webhooks);
    },
    deliverInBackground(webhook) {
      recorder.recordWebhook(webhook);
      deliverer.deliverInBackground(webhook);
    },
    deliverInOrder(webhooks) {
      for (const webhook of webhooks) recorder.recordWebhook(webhook);
      deliverer.deliverInOrder(webhooks);
    },
  };
}
