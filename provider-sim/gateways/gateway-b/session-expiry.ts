import { StripeError } from "./errors.ts";
import type { CheckoutSession } from "./model.ts";

/**
 * `POST /v1/checkout/sessions/{id}/expire`: Stripe expires only an `open` session; one complete or
 * expired already is refused with a 400. An expired session can no longer be paid.
 */
export function expiredSession(session: CheckoutSession): CheckoutSession {
  if (session.status !== "open") {
    throw new StripeError(
      400,
      "invalid_request_error",
      `This Checkout Session is ${session.status}. Only Checkout Sessions with a status of open can be expired.`,
    );
  }
  return { ...session, status: "expired" };
}
