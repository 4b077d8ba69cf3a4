import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import type { GatewayBCatalog } from "./catalog.ts";
import { StripeError } from "./errors.ts";
import { addIntervalUnix, INTERVALS, periodOf, type StripePrice, type StripeSubscription } from "./model.ts";
import {
  oneOf,
  optionalHash,
  optionalInteger,
  optionalString,
  rejectUnknown,
  requiredInteger,
  requiredList,
  requiredString,
} from "./params.ts";
import { PRORATION_BEHAVIORS, type ProrationBehavior } from "./plan-changes.ts";

/** One phase of a schedule as the sandbox keeps it: one item, from `start` to `end` (unix seconds). */
export interface PhasePlan {
  readonly price: StripePrice;
  readonly quantity: number;
  readonly start: number;
  readonly end: number;
  readonly proration_behavior: ProrationBehavior;
}

export interface ScheduleRecord {
  readonly id: string;
  readonly subscription: string;
  readonly customer: string;
  readonly currency: string;
  readonly created: number;
  readonly phases: readonly PhasePlan[];
  readonly status: "active" | "released";
  readonly released_at: number | null;
}

const AUTOMATIC_TAX = { disabled_reason: null, enabled: false, liability: null } as const;

function phaseObject(phase: PhasePlan, currency: string) {
  return {
    add_invoice_items: [] as readonly never[],
    application_fee_percent: null,
    automatic_tax: AUTOMATIC_TAX,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency,
    default_payment_method: null,
    default_tax_rates: [] as readonly never[],
    description: null,
    discounts: [] as readonly never[],
    end_date: phase.end,
    invoice_settings: null,
    items: [
      {
        billing_thresholds: null,
        discounts: [] as readonly never[],
        metadata: {},
        plan: phase.price.id,
        price: phase.price.id,
        quantity: phase.quantity,
        tax_rates: [] as readonly never[],
      },
    ],
    metadata: {},
    on_behalf_of: null,
    proration_behavior: phase.proration_behavior,
    start_date: phase.start,
    transfer_data: null,
    trial_end: null,
  };
}

/** A `subscription_schedule` object as Stripe returns it. */
export function scheduleObject(schedule: ScheduleRecord, now: number) {
  const current = schedule.phases.find((phase) => phase.start <= now && now < phase.end);
  return {
    id: schedule.id,
    object: "subscription_schedule" as const,
    application: null,
    billing_mode: {
      flexible: { proration_discounts: "included" as const },
      type: "flexible" as const,
      updated_at: schedule.created,
    },
    canceled_at: null,
    completed_at: null,
    created: schedule.created,
    current_phase:
      schedule.status === "active" && current ? { start_date: current.start, end_date: current.end } : null,
    customer: schedule.customer,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: AUTOMATIC_TAX,
      billing_cycle_anchor: "automatic" as const,
      billing_thresholds: null,
      collection_method: "charge_automatically" as const,
      default_payment_method: null,
      description: null,
      invoice_settings: {
        account_tax_ids: null,
        custom_fields: null,
        days_until_due: null,
        description: null,
        footer: null,
        issuer: { type: "self" as const },
      },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: "release" as const,
    livemode: false as const,
    metadata: {},
    pause_schedules: [] as readonly never[],
    phases: schedule.phases.map((phase) => phaseObject(phase, schedule.currency)),
    released_at: schedule.released_at,
    released_subscription: schedule.status === "released" ? schedule.subscription : null,
    status: schedule.status,
    subscription: schedule.status === "released" ? null : schedule.subscription,
    test_clock: null,
  };
}

/** `from_subscription`: one phase, the subscription's current period with its current item. */
export function scheduleFrom(subscription: StripeSubscription, now: number): ScheduleRecord {
  const item = subscription.items.data[0];
  if (!item) throw StripeError.invalid("from_subscription", "the subscription has no item");
  if (subscription.status === "canceled")
    throw StripeError.invalid("from_subscription", "the subscription is canceled");
  if (subscription.schedule !== null) {
    throw StripeError.invalid("from_subscription", `the subscription is already managed by ${subscription.schedule}`);
  }
  const period = periodOf(subscription);
  return {
    id: newGatewayId("sub_sched"),
    subscription: subscription.id,
    customer: subscription.customer,
    currency: subscription.currency,
    created: now,
    phases: [
      {
        price: item.price,
        quantity: item.quantity,
        start: period.start,
        end: period.end,
        proration_behavior: "create_prorations",
      },
    ],
    status: "active",
    released_at: null,
  };
}

/**
 * `POST /v1/subscription_schedules/{id}` with `phases` and `end_behavior`: each phase names its
 * items by `price` or `price_data`; the first keeps its `start_date`; a phase ends at its
 * `end_date`, or after its `duration`, and the next starts then. `end_behavior` must be `release`:
 * the sandbox's schedules hand the subscription back when their last phase ends.
 */
export function updatedPhases(
  schedule: ScheduleRecord,
  form: FormObject,
  catalog: GatewayBCatalog,
  now: number,
): ScheduleRecord {
  rejectUnknown(form, ["phases", "end_behavior", "proration_behavior"]);
  if (schedule.status !== "active") {
    throw StripeError.invalid("phases", `You cannot update a subscription schedule that is ${schedule.status}.`);
  }
  if (form.end_behavior !== undefined) oneOf(form.end_behavior, "end_behavior", ["release"] as const);
  const list = requiredList(form.phases, "phases");
  let start = schedule.phases[0]?.start ?? now;
  const phases = list.map((value, index): PhasePlan => {
    const at = `phases[${index}]`;
    const phase = optionalHash(value, at) ?? {};
    const items = requiredList(phase.items, `${at}[items]`);
    if (items.length !== 1) throw StripeError.invalid(`${at}[items]`, "the sandbox bills one item per phase");
    const item = optionalHash(items[0], `${at}[items][0]`) ?? {};
    const price = phasePrice(item, `${at}[items][0]`, catalog);
    const quantity = optionalInteger(item.quantity, `${at}[items][0][quantity]`, 1, 999_999) ?? 1;
    const phaseStart = optionalInteger(phase.start_date, `${at}[start_date]`, 0, 4_102_444_800) ?? start;
    const duration = optionalHash(phase.duration, `${at}[duration]`);
    const end = duration
      ? addIntervalUnix(
          phaseStart,
          oneOf(duration.interval, `${at}[duration][interval]`, INTERVALS),
          requiredInteger(duration.interval_count ?? "1", `${at}[duration][interval_count]`, 1, 365),
        )
      : requiredInteger(phase.end_date, `${at}[end_date]`, phaseStart + 1, 4_102_444_800);
    const proration =
      phase.proration_behavior === undefined
        ? "create_prorations"
        : oneOf(phase.proration_behavior, `${at}[proration_behavior]`, PRORATION_BEHAVIORS);
    start = end;
    return { price, quantity, start: phaseStart, end, proration_behavior: proration };
  });
  return { ...schedule, phases };
}

function phasePrice(item: FormObject, param: string, catalog: GatewayBCatalog): StripePrice {
  const priceId = optionalString(item.price, `${param}[price]`);
  const data = optionalHash(item.price_data, `${param}[price_data]`);
  if ((priceId === null) === (data === null)) {
    throw StripeError.invalid(param, "exactly one of price and price_data is required");
  }
  if (priceId !== null) return catalog.price(priceId, `${param}[price]`);
  const form = data as FormObject;
  const product = catalog.product(requiredString(form.product, `${param}[price_data][product]`));
  return catalog.addPrice({ ...catalog.buildPrice(form, product.id, `${param}[price_data]`), active: false });
}
