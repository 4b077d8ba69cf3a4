import { PermanentJobFailure } from "../shared/jobs.ts";
import type { CustomerNotification, Notifier, OutboxMessage, OutboxReader } from "./ports.ts";

function compose(message: OutboxMessage): CustomerNotification {
  const data = message.payload;
  const ready = message.kind === "fulfillment.ready";
  return {
    outbox_id: message.id,
    customer_id: String(data.customer_id),
    kind: message.kind,
    title: ready ? "Your purchase is ready" : "We could not deliver your purchase",
    body: ready
      ? "Delivery finished. Open your dashboard for the next step."
      : "Delivery failed after several attempts. You can retry it from your dashboard; our team has been told.",
    data: {
      fulfillment_id: data.fulfillment_id,
      order_id: data.order_id,
      order_item_id: data.order_item_id,
      driver: data.driver,
    },
  };
}

/** The notify job: one outbox message out through the Notifier, then marked dispatched. */
export function makeDispatchNotification(deps: { outbox: OutboxReader; notifier: Notifier }) {
  return async function dispatchNotification(payload: Readonly<Record<string, unknown>>): Promise<void> {
    const message = await deps.outbox.find(String(payload.outbox_id ?? ""));
    if (!message) throw new PermanentJobFailure(`outbox message ${String(payload.outbox_id)} does not exist`);
    if (message.dispatched_at) return;
    await deps.notifier.deliver(compose(message));
    await deps.outbox.markDispatched(message.id);
  };
}
