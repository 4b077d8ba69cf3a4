import { type CheckoutPageLine, type CheckoutView, formatMoney } from "../checkout-page.ts";
import type { CheckoutSource } from "../hosted-checkout.ts";
import type { GatewayBBilling, SessionRecord } from "./billing.ts";
import type { EventFactory } from "./period-end-events.ts";

/** The coupon's discount, shown as a line of its own so the page's lines add up to the total. */
function discountLine(session: SessionRecord["session"]): CheckoutPageLine[] {
  const amount = session.total_details.amount_discount;
  const coupon = session.discounts[0]?.coupon;
  return coupon && amount > 0 ? [{ name: `Discount (${coupon})`, quantity: 1, amount: -amount, note: null }] : [];
}

function viewOf({ session, input }: SessionRecord): CheckoutView {
  const trial = input.trial_period_days;
  return {
    gateway: "gateway_b",
    id: session.id,
    reference: session.client_reference_id ?? session.metadata.order_id ?? null,
    lines: [
      ...input.lines.map(({ price, product_name, quantity }) => {
        const full = price.unit_amount * quantity;
        const recurring = price.recurring;
        const every =
          recurring &&
          (recurring.interval_count === 1 ? recurring.interval : `${recurring.interval_count} ${recurring.interval}s`);
        const note =
          every &&
          `then ${formatMoney(full, price.currency)} every ${every}${trial ? ` after a ${trial}-day trial` : ""}`;
        return { name: product_name, quantity, amount: recurring && trial ? 0 : full, note };
      }),
      ...discountLine(session),
    ],
    total: session.amount_total,
    currency: session.currency,
    paid: session.status === "complete",
    expired: session.status === "expired",
    successUrl: session.success_url?.replaceAll("{CHECKOUT_SESSION_ID}", session.id) ?? null,
    cancelUrl: session.cancel_url,
  };
}

/**
 * The hosted page of a Checkout Session. Paying awaits `checkout.session.completed`; a subscription
 * then reports, in the background, what Stripe reports around it: the new subscription and its
 * first invoice paid (`billing_reason: "subscription_create"`) with the invoice payment naming the intent.
 */
export function gatewayBCheckout(billing: GatewayBBilling, event: EventFactory): CheckoutSource {
  return {
    gateway: "gateway_b",
    view(id) {
      const record = billing.findSession(id);
      return record && viewOf(record);
    },
    complete(id) {
      const completed = billing.complete(id);
      if (!completed) return undefined;
      return {
        paid: event("checkout.session.completed", completed.session),
        following: () =>
          "subscription" in completed
            ? [
                event("customer.subscription.created", completed.subscription),
                event("invoice.paid", completed.invoice),
                ...(completed.invoicePayment ? [event("invoice_payment.paid", completed.invoicePayment)] : []),
              ]
            : [],
      };
    },
  };
}
