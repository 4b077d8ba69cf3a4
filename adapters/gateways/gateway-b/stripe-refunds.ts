import { REFUND_ATTEMPT_MAX_CALLS, type RefundResult } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import type { StripeCall } from "./stripe-http.ts";
import { readRefund } from "./stripe-responses.ts";

/** Pages of a payment's refunds read before the POST, within the calls one refund may make. */
const MAX_PAGES = REFUND_ATTEMPT_MAX_CALLS - 1;

/**
 * The refund made earlier under `reference` for the payment intent, if Stripe lists one: its
 * refunds are read (`GET /v1/refunds?payment_intent=…`, newest first, `starting_after` to page on)
 * and matched by `metadata.refund_reference`. Past the idempotency key's 24 hours, this is what
 * keeps a late retry from refunding twice.
 */
export async function findStripeRefund(
  send: (call: StripeCall) => Promise<unknown>,
  paymentIntent: string,
  reference: string,
): Promise<RefundResult | undefined> {
  let after: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const query = new URLSearchParams({ payment_intent: paymentIntent, limit: "100" });
    if (after !== null) query.set("starting_after", after);
    const page = await send({ method: "GET", path: `/v1/refunds?${query}` });
    if (!isRecord(page) || page.object !== "list" || !Array.isArray(page.data) || !page.data.every(isRecord)) {
      throw new UpstreamBadResponse("gateway", "the refund list is not a list of objects");
    }
    const found = page.data.find(
      (refund) => isRecord(refund.metadata) && refund.metadata.refund_reference === reference,
    );
    if (found) return readRefund(found);
    const last = page.data.at(-1);
    if (page.has_more !== true || last === undefined) return undefined;
    if (typeof last.id !== "string") throw new UpstreamBadResponse("gateway", "a listed refund has no id");
    after = last.id;
  }
  // Saying "none" after a cut-off could refund twice.
  throw new UpstreamBadResponse("gateway", `the refund list goes past ${MAX_PAGES} pages`);
}
