import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { browserLink } from "../browser-link.ts";
import { createFieldReader } from "./stripe-fields.ts";
import type { StripeCall } from "./stripe-http.ts";
import { readSubscription } from "./stripe-responses.ts";

const read = createFieldReader((reason) => {
  throw new UpstreamBadResponse("gateway", reason);
});

/**
 * A customer portal session at Stripe (`POST /v1/billing_portal/sessions`) for the subscription's
 * customer, opened on the payment-method flow: the customer enters a new card, Stripe pays the
 * subscription's open invoice with it, and the portal leads back to `returnUrl`. A session's link
 * is short-lived and good for one visit, so one is made for each request.
 */
export async function stripeBillingPortal(
  send: (call: StripeCall) => Promise<unknown>,
  subscriptionId: string,
  returnUrl: string,
): Promise<string> {
  const subscription = readSubscription(
    await send({ method: "GET", path: `/v1/subscriptions/${encodeURIComponent(subscriptionId)}` }),
  );
  if (!subscription.customer_id) throw new UpstreamBadResponse("gateway", "the subscription names no customer");
  const session = read.record(
    await send({
      method: "POST",
      path: "/v1/billing_portal/sessions",
      form: {
        customer: subscription.customer_id,
        return_url: returnUrl,
        flow_data: { type: "payment_method_update" },
      },
    }),
    "the portal session",
  );
  return browserLink(read.string(session, "url"), "the portal session's url");
}
