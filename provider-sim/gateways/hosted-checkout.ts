import type { CheckoutView } from "./checkout-page.ts";
import type { DeliveryOutcome, GatewayName, OutgoingWebhook, WebhookDeliverer } from "./webhook-deliverer.ts";

export type PayResult =
  | { readonly outcome: "paid"; readonly delivery: DeliveryOutcome }
  | { readonly outcome: "already_paid" }
  | { readonly outcome: "expired" }
  | { readonly outcome: "not_found" };

export type ResendResult =
  | { readonly outcome: "resent"; readonly delivery: DeliveryOutcome }
  | { readonly outcome: "not_paid" }
  | { readonly outcome: "not_found" };

/** What a sandbox offers its hosted checkout page. */
export interface HostedCheckout {
  readonly gateway: GatewayName;
  view(id: string): CheckoutView | undefined;
  /** Marks the checkout paid before it awaits anything, so two concurrent payments pay once. */
  pay(id: string): Promise<PayResult>;
  /** Sends the paid event again, with the same event id. */
  resend(id: string): Promise<ResendResult>;
}

/** What paying a checkout sends: the event that confirms it, then any that follow it in the background. */
export interface CheckoutCompletion {
  readonly paid: OutgoingWebhook;
  /** Made once `paid` was delivered, so they come after it in time as well as in order. */
  readonly following?: () => readonly OutgoingWebhook[];
}

/** What one gateway adds to the hosted checkout: its page and how a checkout is paid there. */
export interface CheckoutSource {
  readonly gateway: GatewayName;
  view(id: string): CheckoutView | undefined;
  /** Marks the checkout paid and names its events; undefined when it was paid already. */
  complete(id: string): CheckoutCompletion | undefined;
}

/** The hosted checkout both sandboxes share; the paid event is kept so `resend` repeats it. */
export function createHostedCheckout(
  source: CheckoutSource,
  deliverer: WebhookDeliverer,
): { readonly checkout: HostedCheckout; clear(): void } {
  const paidEvents = new Map<string, OutgoingWebhook>();
  const checkout: HostedCheckout = {
    gateway: source.gateway,
    view: (id) => source.view(id),
    async pay(id) {
      const view = source.view(id);
      if (!view) return { outcome: "not_found" };
      if (view.expired) return { outcome: "expired" };
      const completed = source.complete(id);
      if (!completed) return { outcome: "already_paid" };
      paidEvents.set(id, completed.paid);
      const delivery = await deliverer.deliver(completed.paid);
      const following = completed.following?.() ?? [];
      if (following.length > 0) deliverer.deliverInOrder(following);
      return { outcome: "paid", delivery };
    },
    async resend(id) {
      if (!source.view(id)) return { outcome: "not_found" };
      const paid = paidEvents.get(id);
      return paid ? { outcome: "resent", delivery: await deliverer.deliver(paid) } : { outcome: "not_paid" };
    },
  };
  return { checkout, clear: () => paidEvents.clear() };
}
