import { channel } from "node:diagnostics_channel";
import {
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "../../application/shared/errors.ts";

export type UpstreamOutcome =
  | "ok"
  | "rejected"
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "unreachable"
  | "bad_response"
  | "refused"
  | "error";

/** One finished call to a gateway or the provider. */
export interface UpstreamCall {
  /** Who was called: `gateway_a`, `gateway_b`, `provider`, `provisioner`. */
  readonly name: string;
  readonly method: string;
  readonly outcome: UpstreamOutcome;
  readonly seconds: number;
}

/**
 * Every upstream call is published here when it ends, for whoever listens (the metrics). A
 * diagnostics channel keeps the callers free of a metrics dependency and costs nothing unheard.
 */
export const upstreamCalls = channel("marketplace.upstream.call");

export function publishUpstreamCall(call: UpstreamCall) {
  if (upstreamCalls.hasSubscribers) upstreamCalls.publish(call);
}

/** The outcome of a call that threw, from the typed error it threw. */
export function outcomeOf(error: unknown): UpstreamOutcome {
  if (error instanceof UpstreamTimeout) return "timeout";
  if (error instanceof UpstreamUnreachable) return "unreachable";
  if (error instanceof UpstreamRateLimited) return "rate_limited";
  if (error instanceof UpstreamServerError) return "server_error";
  if (error instanceof UpstreamRejected) return "rejected";
  if (error instanceof UpstreamBadResponse) return "bad_response";
  if (error instanceof UpstreamUrlNotAllowed) return "refused";
  return "error";
}
