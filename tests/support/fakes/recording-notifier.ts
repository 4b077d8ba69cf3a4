import type { CustomerNotification, Notifier } from "../../../application/notifications/ports.ts";

/** A Notifier that keeps what it was given; `fail` makes delivery throw until `recover`. */
export function createRecordingNotifier() {
  const delivered: CustomerNotification[] = [];
  let failure: Error | undefined;
  const notifier: Notifier = {
    async deliver(notification) {
      if (failure) throw failure;
      delivered.push(notification);
    },
  };
  return {
    ...notifier,
    delivered,
    fail(error: Error) {
      failure = error;
    },
    recover() {
      failure = undefined;
    },
  };
}
