import type { createSandboxHandler, SandboxContext } from "../sandbox-handler.ts";
import { StripeError } from "./errors.ts";

type Handle = ReturnType<typeof createSandboxHandler>;

/** Stripe forgets a key after a day. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface Stored {
  readonly request: string;
  readonly at: number;
  /** Undefined while the first request is still running. */
  readonly answer?: { readonly status: number; readonly body: unknown };
}

/** The endpoint and its parameters, in a fixed order: what a repeat under the same key must match. */
function requestOf(context: SandboxContext): string {
  const form = new URLSearchParams(new TextDecoder().decode(context.raw));
  const params = [...form].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${new URL(context.request.url).pathname}?${new URLSearchParams(params)}`;
}

/**
 * Stripe's idempotent requests: a POST with an `Idempotency-Key` that was seen with the same
 * endpoint and parameters is answered with the first answer again (`Idempotent-Replayed: true`);
 * with other parameters it is a 400 `idempotency_error`; while the first is still running, a 409.
 * Only answers that succeeded are kept: a request refused by validation ran nothing.
 */
export function createStripeIdempotency(now: () => number) {
  const keys = new Map<string, Stored>();

  function wrap(handle: Handle): Handle {
    return (run) =>
      handle(async (context) => {
        const key = context.request.method === "POST" ? context.request.headers.get("idempotency-key") : null;
        if (key === null) return run(context);
        const request = requestOf(context);
        const seen = keys.get(key);
        if (seen && now() - seen.at < KEY_LIFETIME_MS) {
          if (seen.request !== request) {
            throw new StripeError(
              400,
              "idempotency_error",
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            );
          }
          if (!seen.answer) {
            throw new StripeError(
              409,
              "invalid_request_error",
              "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through). Please try again later.",
              "idempotency_key_in_use",
            );
          }
          context.set.status = seen.answer.status;
          context.set.headers["idempotent-replayed"] = "true";
          return seen.answer.body;
        }
        keys.set(key, { request, at: now() });
        try {
          const body = await run(context);
          const status = typeof context.set.status === "number" ? context.set.status : 200;
          keys.set(key, { request, at: now(), answer: { status, body } });
          return body;
        } catch (error) {
          keys.delete(key);
          throw error;
        }
      });
  }

  return { wrap, clear: () => keys.clear() };
}
