import type { EmailQueue } from "../mail/ports.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { customerEmail } from "./customer-email.ts";
import type { notifyJob } from "./jobs.ts";
import type {
  CustomerNotification,
  FulfillmentMailFactsReader,
  GuestLinks,
  NotificationKind,
  NotificationOutboxMessage,
  NotificationOutboxReader,
  Notifier,
} from "./ports.ts";

/** With mail configured, each notification is also emailed to the customer. */
export interface NotificationMail {
  readonly facts: FulfillmentMailFactsReader;
  /** Queues in a transaction of its own: the email and its sending job commit together. */
  readonly queue: EmailQueue;
  readonly publicBaseUrl: string;
  readonly guestLinks: GuestLinks;
}

const WORDS: Readonly<Record<NotificationKind, { readonly title: string; readonly body: string }>> = {
  "fulfillment.ready": {
    title: "Your purchase is ready",
    body: "Delivery finished. Open your dashboard for the next step.",
  },
  "fulfillment.failed": {
    title: "We could not deliver your purchase",
    body: "Delivery failed after several attempts. You can retry it from your dashboard; our team has been told.",
  },
  "fulfillment.action_required": {
    title: "Your purchase needs something from you",
    body: "Delivery waits for you: tell us the domain your installation should use, from your dashboard.",
  },
};

function compose(message: NotificationOutboxMessage): CustomerNotification {
  const data = message.payload;
  return {
    outbox_id: message.id,
    customer_id: String(data.customer_id),
    kind: message.kind,
    ...WORDS[message.kind],
    data: {
      fulfillment_id: data.fulfillment_id,
      order_id: data.order_id,
      order_item_id: data.order_item_id,
      driver: data.driver,
    },
  };
}

/**
 * The notify job: one outbox message out through the Notifier and, with mail, queued as an email
 * (once per message, whatever the retries), then marked dispatched.
 */
export function makeDispatchNotification(deps: {
  outbox: NotificationOutboxReader;
  notifier: Notifier;
  mail?: NotificationMail;
}): JobHandler<typeof notifyJob> {
  return async function dispatchNotification({ outbox_id }): Promise<void> {
    const message = await deps.outbox.find(outbox_id);
    if (!message) throw new PermanentJobFailure(`outbox message ${outbox_id} does not exist`);
    if (message.dispatched_at) return;
    await deps.notifier.deliver(compose(message));
    if (deps.mail) {
      const facts = await deps.mail.facts.forFulfillment(String(message.payload.fulfillment_id ?? ""));
      if (facts) {
        const { guestLinks } = deps.mail;
        const guest = facts.customer_guest
          ? {
              orderUrl: await guestLinks.orderStatus(facts.order_id),
              claimUrl: await guestLinks.claim(facts.customer_id, facts.customer_email),
            }
          : undefined;
        await deps.mail.queue.queue(customerEmail(message, facts, deps.mail.publicBaseUrl, guest));
      }
    }
    await deps.outbox.markDispatched(message.id);
  };
}
