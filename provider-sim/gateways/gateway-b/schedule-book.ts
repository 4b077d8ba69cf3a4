import type { FormObject } from "../form-body.ts";
import type { GatewayBCatalog } from "./catalog.ts";
import { StripeError } from "./errors.ts";
import { type InvoiceLineInput, newInvoice, type StripeInvoice } from "./invoice-object.ts";
import { periodOf, type StripeSubscription } from "./model.ts";
import { replacePrice } from "./plan-changes.ts";
import { type ScheduleRecord, scheduleFrom, scheduleObject, updatedPhases } from "./schedules.ts";
import type { Step, SubscriptionRecord } from "./subscription-billing.ts";
import { withPeriod } from "./subscriptions.ts";

/**
 * The gateway_b sandbox's subscription schedules: made from a subscription, given phases, released,
 * and previewed (`create_preview` with `schedule_details`). Renewals read them to start a phase.
 */
export function createScheduleBook(deps: {
  readonly records: Map<string, SubscriptionRecord>;
  readonly save: (current: SubscriptionRecord, subscription: StripeSubscription) => StripeSubscription;
  readonly record: (id: string) => SubscriptionRecord;
  readonly now: () => number;
  readonly taxRate: () => number;
  readonly catalog: GatewayBCatalog;
  readonly balances: ReadonlyMap<string, number>;
}) {
  const { records, save, record, now, balances } = deps;
  const schedules = new Map<string, ScheduleRecord>();

  const put = (updated: ScheduleRecord) => void schedules.set(updated.id, updated);

  function schedule(id: string, param = "id"): ScheduleRecord {
    const found = schedules.get(id);
    if (!found) throw StripeError.noSuch("subscription_schedule", id, param);
    return found;
  }

  return {
    /**
     * A schedule's next phase starts where the period ends: the item takes the phase's price (and
     * the period its length); a schedule whose last phase ends here lets go of the subscription.
     */
    enterPhase(current: SubscriptionRecord): SubscriptionRecord {
      const subscription = current.subscription;
      const schedule = subscription.schedule ? schedules.get(subscription.schedule) : undefined;
      if (schedule?.status !== "active") return current;
      const end = periodOf(subscription).end;
      const next = schedule.phases.find((phase) => phase.start === end);
      if (!next) {
        put({ ...schedule, status: "released", released_at: end });
        return { ...current, subscription: { ...subscription, schedule: null } };
      }
      const change = {
        item: subscription.items.data[0]?.id ?? "",
        price: next.price,
        productName: "",
        quantity: next.quantity,
      };
      const { subscription: moved } = replacePrice(withPeriod(subscription, { start: end, end }), change, end, "none");
      const lines = current.lines.map((line, i) =>
        i === 0 ? { ...line, price: next.price, quantity: next.quantity } : line,
      );
      const last = schedule.phases.at(-1) === next;
      if (last) put({ ...schedule, status: "released", released_at: end });
      return {
        ...current,
        lines,
        subscription: { ...withPeriod(moved, { start: end, end }), schedule: last ? null : schedule.id },
      };
    },
    find: (id: string) => schedules.get(id),
    put,
    clear: () => schedules.clear(),
    /** `create_preview` with `schedule_details`: the invoice the schedule's next phase would start with. */
    previewPhases(customer: string, form: FormObject): StripeInvoice {
      const owned = [...records.values()].filter((each) => each.subscription.customer === customer);
      const current = owned.find((each) => each.subscription.status !== "canceled");
      if (!current) throw StripeError.invalid("customer", "the customer has no subscription to schedule");
      const draft = updatedPhases(
        scheduleFrom({ ...current.subscription, schedule: null }, now()),
        form,
        deps.catalog,
        now(),
      );
      const next = draft.phases.find((phase) => phase.start >= periodOf(current.subscription).end);
      if (!next) throw StripeError.invalid("schedule_details[phases]", "no phase starts after the current period");
      const item = current.subscription.items.data[0];
      const line: InvoiceLineInput = {
        price: next.price,
        quantity: next.quantity,
        amount: next.price.unit_amount * next.quantity,
        item: item?.id ?? null,
        period: { start: next.start, end: next.end },
      };
      return newInvoice({
        subscription: current.subscription,
        reason: "upcoming",
        lines: [...(current.pending ?? []), line],
        period: { start: next.start, end: next.end },
        rate: deps.taxRate(),
        created: now(),
        customerEmail: current.email,
        startingBalance: balances.get(customer) ?? 0,
        preview: true,
        discount: current.discount,
      });
    },
    schedule: (id: string) => scheduleObject(schedule(id), now()),
    /** `POST /v1/subscription_schedules` with `from_subscription`. */
    createSchedule(subscriptionId: string): { schedule: ReturnType<typeof scheduleObject>; step: Step } {
      const current = record(subscriptionId);
      const created = scheduleFrom(current.subscription, now());
      schedules.set(created.id, created);
      const previous = current.subscription;
      const subscription = save(current, { ...previous, schedule: created.id });
      return { schedule: scheduleObject(created, now()), step: { previous, subscription } };
    },
    updateSchedule(id: string, form: FormObject) {
      const updated = updatedPhases(schedule(id), form, deps.catalog, now());
      schedules.set(id, updated);
      return scheduleObject(updated, now());
    },
    /** Lets go of the subscription: it stays as it is now, and later phases never start. */
    releaseSchedule(id: string): { schedule: ReturnType<typeof scheduleObject>; step: Step | undefined } {
      const found = schedule(id);
      if (found.status !== "active") {
        throw StripeError.invalid("schedule", `You cannot release a subscription schedule that is ${found.status}.`);
      }
      const released: ScheduleRecord = { ...found, status: "released", released_at: now() };
      schedules.set(id, released);
      const current = records.get(found.subscription);
      if (!current) return { schedule: scheduleObject(released, now()), step: undefined };
      const previous = current.subscription;
      const subscription = save(current, { ...previous, schedule: null });
      return { schedule: scheduleObject(released, now()), step: { previous, subscription } };
    },
  };
}
