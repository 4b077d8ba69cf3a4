import type { PlanChange, PlanChangePreview, RemoteSubscription } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { minorUnits } from "./paddle-fields.ts";
import type { PaddleCall, PaddleEnvelope } from "./paddle-http.ts";
import { readPaddleSubscription } from "./paddle-payment-schemas.ts";
import { paddleBillingCycle, paddleTaxMode } from "./paddle-request-bodies.ts";

type Send = (call: PaddleCall) => Promise<PaddleEnvelope>;

const bad = (reason: string): never => {
  throw new UpstreamBadResponse("gateway", reason);
};

/** The subscription as the change needs it: its first item's product and quantity, and the paid period's end. */
async function current(send: Send, subscriptionId: string) {
  const { data } = await send({ method: "GET", target: `/subscriptions/${encodeURIComponent(subscriptionId)}` });
  if (!isRecord(data)) return bad("the subscription is not an object");
  const first = Array.isArray(data.items) ? data.items[0] : undefined;
  const price = isRecord(first) && isRecord(first.price) ? first.price : bad("the subscription has no item");
  const period = isRecord(data.current_billing_period) ? data.current_billing_period : {};
  return {
    product: typeof price.product_id === "string" ? price.product_id : bad("the item's price names no product"),
    quantity: isRecord(first) && Number.isSafeInteger(first.quantity) ? (first.quantity as number) : 1,
    periodEnd: typeof period.ends_at === "string" ? period.ends_at : null,
  };
}

/**
 * The request body of a change. `now`: `prorated_immediately` (Paddle's credit for the unused time
 * and the new price from now, to the minute, collected at once) with `prevent_change`, so a refused
 * card leaves the plan as it was. `period_end`: Paddle changes a billing frequency only at once, so
 * the new price applies now with `do_not_bill`, and `next_billed_at` stays at the end of the
 * period already paid for: the first charge at the new price is then.
 */
function changeBody(change: PlanChange, now: Awaited<ReturnType<typeof current>>) {
  const item =
    change.gateway_price_id !== null
      ? { price_id: change.gateway_price_id, quantity: now.quantity }
      : {
          price: {
            description: `${change.product_name} (${change.variant})`,
            name: change.product_name,
            product_id: now.product,
            unit_price: { amount: String(change.unit_amount), currency_code: change.currency.toUpperCase() },
            billing_cycle: paddleBillingCycle(change.variant),
            tax_mode: paddleTaxMode(change.tax_behavior),
          },
          quantity: now.quantity,
        };
  if (change.timing === "now") {
    return { items: [item], proration_billing_mode: "prorated_immediately", on_payment_failure: "prevent_change" };
  }
  if (now.periodEnd === null) return bad("the subscription has no billing period to wait for");
  return { items: [item], proration_billing_mode: "do_not_bill", next_billed_at: now.periodEnd };
}

function grandTotal(transaction: unknown, what: string): number {
  const details = isRecord(transaction) && isRecord(transaction.details) ? transaction.details : {};
  const totals = isRecord(details.totals)
    ? details.totals
    : isRecord(transaction) && isRecord(transaction.totals)
      ? transaction.totals
      : {};
  return minorUnits(totals.grand_total) ?? bad(`${what} has no grand_total`);
}

/** A subscription preview: what is charged at once, and what each renewal will be. */
function readPreview(data: unknown): PlanChangePreview {
  if (!isRecord(data)) return bad("the preview is not an object");
  const recurring = isRecord(data.recurring_transaction_details) ? data.recurring_transaction_details : undefined;
  if (!recurring) return bad("the preview has no recurring_transaction_details");
  return {
    due_now: data.immediate_transaction ? grandTotal(data.immediate_transaction, "the immediate transaction") : 0,
    next_amount: grandTotal(recurring, "the recurring transaction"),
    next_billing_at: typeof data.next_billed_at === "string" ? data.next_billed_at : null,
    currency: typeof data.currency_code === "string" ? data.currency_code.toUpperCase() : bad("no currency_code"),
  };
}

/** Plan changes at Paddle: `PATCH /subscriptions/{id}` with the new items, previewed on `/preview` first. */
export function createPaddlePlanChanges(send: Send) {
  const target = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;
  return {
    async previewPlanChange(change: PlanChange): Promise<PlanChangePreview> {
      const body = changeBody(change, await current(send, change.subscription_id));
      const { data } = await send({ method: "PATCH", target: `${target(change.subscription_id)}/preview`, body });
      return readPreview(data);
    },
    /** Paddle applies a change at once (billing it later at most): nothing waits at the gateway. */
    async releasePlanChange(subscriptionId: string): Promise<RemoteSubscription> {
      const { data } = await send({ method: "GET", target: target(subscriptionId) });
      return readPaddleSubscription(data);
    },

    async changePlan(change: PlanChange): Promise<RemoteSubscription> {
      const body = changeBody(change, await current(send, change.subscription_id));
      const { data } = await send({ method: "PATCH", target: target(change.subscription_id), body });
      return readPaddleSubscription(data);
    },
  };
}
