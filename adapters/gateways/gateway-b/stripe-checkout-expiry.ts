import type { CheckoutClosure } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import type { StripeCall } from "./stripe-http.ts";

const SESSION_STATUSES = new Set(["open", "complete", "expired"]);

/** A Checkout Session's `status`; anything else is a body the adapter does not trust. */
function sessionStatus(body: unknown): string {
  if (!isRecord(body) || body.object !== "checkout.session") {
    throw new UpstreamBadResponse("gateway", "expected a checkout.session");
  }
  if (typeof body.status !== "string" || !SESSION_STATUSES.has(body.status)) {
    throw new UpstreamBadResponse("gateway", "the checkout session has no known status");
  }
  return body.status;
}

/**
 * `POST /v1/checkout/sessions/{id}/expire`. Stripe expires only an `open` session and refuses any
 * other with a 400, in words that name no code of their own: the session is read back then, and a
 * `complete` or `expired` one is already closed. A refusal of a session still open is passed on.
 */
export async function expireStripeSession(
  send: (call: StripeCall) => Promise<unknown>,
  sessionId: string,
): Promise<CheckoutClosure> {
  const path = `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`;
  try {
    const status = sessionStatus(await send({ method: "POST", path: `${path}/expire` }));
    if (status !== "expired") throw new UpstreamBadResponse("gateway", `the expired session is ${status}`);
    return { closed_now: true, status };
  } catch (error) {
    if (!(error instanceof UpstreamRejected)) throw error;
    // Sessions are kept for 30 days; one Stripe no longer knows cannot be paid either.
    if (error.status === 404) return { closed_now: false, status: "not_found" };
    if (error.status !== 400) throw error;
    const status = sessionStatus(await send({ method: "GET", path }));
    if (status === "open") throw error;
    return { closed_now: false, status };
  }
}
