import type { PlanChange, PlanChangePreview, RemoteSubscription } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import type { FormFields } from "./form-encoding.ts";
import { createFieldReader, type Fields } from "./stripe-fields.ts";
import type { StripeCall } from "./stripe-http.ts";
import { readSubscription } from "./stripe-responses.ts";

const read = createFieldReader((reason) => {
  throw new UpstreamBadResponse("gateway", reason);
});

type Send = (call: StripeCall) => Promise<unknown>;

const RECURRING = { monthly: "month", yearly: "year" } as const;

/** The subscription as the change needs it: its one item, that item's product and period, its schedule. */
interface Current {
  readonly id: string;
  readonly customer: string;
  readonly item: string;
  readonly price: string;
  readonly product: string;
  readonly quantity: number;
  readonly period: { readonly start: number; readonly end: number };
  readonly schedule: string | null;
}

async function current(send: Send, subscriptionId: string): Promise<Current> {
  const subscription = read.record(
    await send({ method: "GET", path: `/v1/subscriptions/${encodeURIComponent(subscriptionId)}` }),
    "the subscription",
  );
  const items = isRecord(subscription.items) && Array.isArray(subscription.items.data) ? subscription.items.data : [];
  const item = read.record(items[0], "the subscription's first item");
  const price = read.record(item.price, "the item's price");
  return {
    id: read.string(subscription, "id"),
    customer: read.id(subscription, "customer"),
    item: read.string(item, "id"),
    price: read.string(price, "id"),
    product: read.id(price, "product"),
    quantity: read.optionalInteger(item, "quantity") ?? 1,
    period: { start: read.integer(item, "current_period_start"), end: read.integer(item, "current_period_end") },
    schedule: read.optionalId(subscription, "schedule"),
  };
}

/** The new price: the synced one by id, otherwise inline on the product the subscription already bills. */
function newPrice(change: PlanChange, product: string): FormFields {
  if (change.gateway_price_id !== null) return { price: change.gateway_price_id };
  return {
    price_data: {
      currency: change.currency.toLowerCase(),
      product,
      unit_amount: change.unit_amount,
      recurring: { interval: RECURRING[change.variant] },
      tax_behavior: change.tax_behavior,
    },
  };
}

/** The two phases of a change at the period end: the paid period as it is, then the new price. */
function schedulePhases(change: PlanChange, now: Current): FormFields {
  return {
    end_behavior: "release",
    phases: [
      {
        items: [{ price: now.price, quantity: now.quantity }],
        start_date: now.period.start,
        end_date: now.period.end,
      },
      {
        items: [{ ...newPrice(change, now.product), quantity: now.quantity }],
        duration: { interval: RECURRING[change.variant], interval_count: 1 },
        proration_behavior: "none",
      },
    ],
  };
}

const signed = (object: Fields, key: string): number => {
  const value = object[key];
  if (!Number.isSafeInteger(value)) throw new UpstreamBadResponse("gateway", `"${key}" is not an integer`);
  return value as number;
};

/** Whether an invoice line is a proration (credit for unused time, or the rest of a period). */
function isProration(line: Fields): boolean {
  const parent = isRecord(line.parent) ? line.parent : {};
  const details = isRecord(parent.subscription_item_details) ? parent.subscription_item_details : {};
  return details.proration === true;
}

/**
 * The preview invoice read as the change's cost: `amount_due` now (nothing at all when the change
 * waits for the period end), and each renewal's amount as the invoice's lines at the new price
 * (not prorations) with the tax added on top of them.
 */
function readPreview(body: unknown, timing: PlanChange["timing"]): PlanChangePreview {
  const invoice = read.record(body, "the preview invoice");
  const lines = isRecord(invoice.lines) && Array.isArray(invoice.lines.data) ? invoice.lines.data : [];
  const regular = lines.filter((line): line is Fields => isRecord(line) && !isProration(line));
  if (regular.length === 0) throw new UpstreamBadResponse("gateway", "the preview bills no line at the new price");
  const taxAdded = (line: Fields) =>
    (Array.isArray(line.taxes) ? line.taxes : [])
      .filter((tax): tax is Fields => isRecord(tax) && tax.tax_behavior === "exclusive")
      .reduce((sum, tax) => sum + signed(tax, "amount"), 0);
  const next = regular.reduce((sum, line) => sum + signed(line, "amount") + taxAdded(line), 0);
  const period = read.record(regular[0]?.period, "the line's period");
  return {
    due_now: timing === "now" ? read.integer(invoice, "amount_due") : 0,
    next_amount: next,
    next_billing_at: read.optionalTime(period, timing === "now" ? "end" : "start"),
    currency: read.string(invoice, "currency").toUpperCase(),
  };
}

/**
 * Plan changes at Stripe. `now`: the item's price is replaced with `always_invoice`, so the
 * difference (Stripe's proration to the second, a new billing period when the interval changes) is
 * invoiced and paid at once; with `error_if_incomplete` a refused card leaves the plan as it was.
 * `period_end`: a subscription schedule keeps the paid period and starts the new price when it ends
 * (Stripe changes an interval nowhere else without billing at once).
 */
export function createStripePlanChanges(send: Send) {
  return {
    async previewPlanChange(change: PlanChange): Promise<PlanChangePreview> {
      const now = await current(send, change.subscription_id);
      const form: FormFields =
        change.timing === "now"
          ? {
              subscription: now.id,
              subscription_details: {
                items: [{ id: now.item, ...newPrice(change, now.product), quantity: now.quantity }],
                proration_behavior: "always_invoice",
              },
            }
          : { customer: now.customer, schedule_details: schedulePhases(change, now) };
      return readPreview(await send({ method: "POST", path: "/v1/invoices/create_preview", form }), change.timing);
    },

    /** A schedule waiting to change the plan at the period end is let go; without one, nothing is sent. */
    async releasePlanChange(subscriptionId: string): Promise<RemoteSubscription> {
      const now = await current(send, subscriptionId);
      if (now.schedule) await releaseSchedule(send, now.schedule);
      return readSubscription(
        await send({ method: "GET", path: `/v1/subscriptions/${encodeURIComponent(subscriptionId)}` }),
      );
    },

    async changePlan(change: PlanChange): Promise<RemoteSubscription> {
      const now = await current(send, change.subscription_id);
      // One key per change asked for: a call the client retries is answered once, and a later change
      // of the same kind (after a cancellation released a schedule, say) is a change of its own.
      const idempotencyKey = `plan-${now.id}-${change.variant}-${change.timing}-${crypto.randomUUID()}`;
      if (change.timing === "now") {
        // A subscription run by a schedule (a change waiting for the period end) is released first.
        if (now.schedule) await releaseSchedule(send, now.schedule);
        const form: FormFields = {
          items: [{ id: now.item, ...newPrice(change, now.product), quantity: now.quantity }],
          proration_behavior: "always_invoice",
          payment_behavior: "error_if_incomplete",
        };
        const path = `/v1/subscriptions/${encodeURIComponent(now.id)}`;
        return readSubscription(await send({ method: "POST", path, form, idempotencyKey }));
      }
      const schedule = now.schedule
        ? now.schedule
        : read.string(
            read.record(
              await send({
                method: "POST",
                path: "/v1/subscription_schedules",
                form: { from_subscription: now.id },
                idempotencyKey: `${idempotencyKey}-schedule`,
              }),
              "the subscription schedule",
            ),
            "id",
          );
      await send({
        method: "POST",
        path: `/v1/subscription_schedules/${encodeURIComponent(schedule)}`,
        form: schedulePhases(change, now),
        idempotencyKey,
      });
      return readSubscription(
        await send({ method: "GET", path: `/v1/subscriptions/${encodeURIComponent(change.subscription_id)}` }),
      );
    },
  };
}

/** Lets go of a schedule: the subscription stays as it is now, and the schedule's later phases never start. */
async function releaseSchedule(send: Send, schedule: string): Promise<void> {
  await send({ method: "POST", path: `/v1/subscription_schedules/${encodeURIComponent(schedule)}/release` });
}
