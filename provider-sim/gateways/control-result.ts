import type { DeliveryOutcome, OutgoingWebhook, WebhookDeliverer } from "./webhook-deliverer.ts";

/** What a `/__sim` control that sends several events reports: the main event's delivery, and every event's. */
export interface ControlDelivery {
  readonly delivered: boolean;
  readonly status: number | null;
  readonly event_id: string;
  readonly events: readonly (DeliveryOutcome & { readonly event_type: string })[];
}

/** Sends `webhooks` in order and awaits them; `delivered` is true only when every one was accepted. */
export async function deliverForControl(
  deliverer: WebhookDeliverer,
  webhooks: readonly OutgoingWebhook[],
  main: OutgoingWebhook,
): Promise<ControlDelivery> {
  const outcomes = await deliverer.deliverAll(webhooks);
  const events = outcomes.map((outcome, i) => ({ ...outcome, event_type: webhooks[i]?.eventType ?? "" }));
  const mainOutcome = events.find((outcome) => outcome.event_id === main.eventId);
  return {
    delivered: events.every((outcome) => outcome.delivered),
    status: mainOutcome?.status ?? null,
    event_id: main.eventId,
    events,
  };
}

/** The old values of the fields of `keys` that differ between `before` and `after`. */
export function changedFields<T extends object>(before: T, after: T, keys: readonly (keyof T)[]) {
  const changed = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return changed.length === 0 ? undefined : Object.fromEntries(changed.map((key) => [key, before[key]]));
}
