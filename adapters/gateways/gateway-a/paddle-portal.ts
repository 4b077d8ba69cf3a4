import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { browserLink } from "../browser-link.ts";
import type { PaddleCall, PaddleEnvelope } from "./paddle-http.ts";
import { readPaddleSubscription } from "./paddle-payment-schemas.ts";

/**
 * A customer portal session at Paddle (`POST /customers/{id}/portal-sessions`) for the
 * subscription's customer, naming the subscription: its `update_subscription_payment_method` link
 * opens the page where a new card is entered. Paddle's session links are authenticated and
 * short-lived, so one is made for each request.
 */
export async function paddleBillingPortal(
  send: (call: PaddleCall) => Promise<PaddleEnvelope>,
  subscriptionId: string,
): Promise<string> {
  const { data: found } = await send({ method: "GET", target: `/subscriptions/${encodeURIComponent(subscriptionId)}` });
  const subscription = readPaddleSubscription(found);
  if (!subscription.customer_id) throw new UpstreamBadResponse("gateway", "the subscription names no customer");
  const { data } = await send({
    method: "POST",
    target: `/customers/${encodeURIComponent(subscription.customer_id)}/portal-sessions`,
    body: { subscription_ids: [subscriptionId] },
  });
  const urls = isRecord(data) && isRecord(data.urls) ? data.urls : undefined;
  const listed = urls && Array.isArray(urls.subscriptions) ? urls.subscriptions : [];
  const entry = listed.find((each: unknown) => isRecord(each) && each.id === subscriptionId);
  const link = isRecord(entry) ? entry.update_subscription_payment_method : undefined;
  return browserLink(link, "the portal session's payment-method link for the subscription");
}
