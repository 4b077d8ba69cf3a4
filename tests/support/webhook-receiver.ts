import { Webhook } from "standardwebhooks";

/** One request as the receiver got it: the exact body, the headers, and the status it was answered (0 while unanswered). */
export interface ReceivedWebhook {
  readonly headers: Record<string, string>;
  readonly body: string;
  status: number;
}

/** An answer to a request, given the request as received (its body already read). */
type Answer = (request: Request, received: ReceivedWebhook) => Response | Promise<Response>;

/**
 * A webhook receiver on loopback (a real `Bun.serve`). It answers with the scripted answers in
 * order, then with `otherwise` (200 unless changed), and keeps every request it got.
 */
export function webhookReceiver(otherwise: Answer = () => new Response("ok")) {
  const received: ReceivedWebhook[] = [];
  const script: Answer[] = [];
  let fallback = otherwise;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 30,
    async fetch(request) {
      const entry = { headers: Object.fromEntries(request.headers), body: await request.text(), status: 0 };
      received.push(entry);
      const response = await (script.shift() ?? fallback)(request, entry);
      entry.status = response.status;
      return response;
    },
  });
  return {
    received,
    url: `http://127.0.0.1:${server.port}/hooks`,
    /** The next requests get these answers, in order. */
    answerNext(...answers: Answer[]) {
      script.push(...answers);
    },
    otherwise(answer: Answer) {
      fallback = answer;
    },
    /** The requests that carried an event of this type. */
    ofType(type: string) {
      return received.filter((request) => (JSON.parse(request.body) as { type: string }).type === type);
    },
    stop() {
      server.stop(true);
    },
  };
}

export type WebhookReceiver = ReturnType<typeof webhookReceiver>;

/** Verified with the reference `standardwebhooks` package, as a receiver would; throws if it is not genuine. */
export function verifiedPayload(secret: string, request: ReceivedWebhook) {
  return new Webhook(secret).verify(request.body, request.headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

export const status =
  (code: number, body = "", headers: Record<string, string> = {}) =>
  () =>
    new Response(body, { status: code, headers });
