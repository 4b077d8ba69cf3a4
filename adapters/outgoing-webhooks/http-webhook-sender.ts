import type { WebhookAnswer, WebhookSender } from "../../application/outgoing-webhooks/ports.ts";
import { type OutboundFetch, OutboundUrlRefused } from "../security/guarded-fetch.ts";
import { describeConnectionFailure, parseRetryAfter } from "../upstream/upstream-http.ts";
import { standardWebhookHeaders } from "./standard-webhooks.ts";

/** How much of a receiver's answer is read: enough to show why it refused, never a whole body. */
const READ_LIMIT_BYTES = 2048;
/** How much of it is kept, for `last_error`. */
const EXCERPT_CHARS = 200;

/** The start of a body, read up to the limit and then dropped; printable text only. */
async function excerptOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < READ_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The body broke off or ran out of time: its start is all that is wanted anyway.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks).subarray(0, READ_LIMIT_BYTES);
  return new TextDecoder()
    .decode(bytes)
    .replace(/[^\x20-\x7e]+/g, " ")
    .trim()
    .slice(0, EXCERPT_CHARS);
}

/**
 * Sends Standard Webhooks POSTs through the marketplace's connect-time address guard: no retries
 * here (the job queue retries), no redirects followed, and one time-out for connecting, the
 * answer and the start of its body.
 */
export function createHttpWebhookSender(deps: {
  readonly outbound: OutboundFetch;
  readonly timeoutSeconds: number;
}): WebhookSender {
  return {
    async send(message): Promise<WebhookAnswer> {
      const signal = AbortSignal.timeout(deps.timeoutSeconds * 1000);
      let response: Response;
      try {
        response = await deps.outbound(message.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "marketplace-webhooks/1",
            ...standardWebhookHeaders(message),
          },
          body: message.body,
          signal,
          redirect: "manual",
        });
      } catch (error) {
        if (error instanceof OutboundUrlRefused) {
          return { kind: "failed", reason: error.message, permanent: !error.transient };
        }
        if (signal.aborted) {
          return { kind: "failed", reason: `no answer within ${deps.timeoutSeconds} s`, permanent: false };
        }
        return { kind: "failed", reason: describeConnectionFailure(error), permanent: false };
      }
      return {
        kind: "answered",
        status: response.status,
        excerpt: await excerptOf(response),
        retry_after_ms: parseRetryAfter(response.headers.get("retry-after")) ?? null,
      };
    },
  };
}
