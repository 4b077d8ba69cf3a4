import { describe, expect, test } from "bun:test";
import type { NewEmail } from "../../../application/mail/ports.ts";
import { makeDispatchNotification } from "../../../application/notifications/dispatch-notification.ts";
import { notifyJob } from "../../../application/notifications/jobs.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { createInMemoryNotificationOutbox } from "../../support/fakes/in-memory-notification-outbox.ts";
import { createRecordingNotifier } from "../../support/fakes/recording-notifier.ts";
import { firstRun } from "../../support/jobs.ts";

const DELIVERY = {
  customer_id: "c-1",
  fulfillment_id: "f-1",
  order_id: "o-1",
  order_item_id: "i-1",
  driver: "license_download",
};

function setUp() {
  const outbox = createInMemoryNotificationOutbox();
  const notifier = createRecordingNotifier();
  return { outbox, notifier, dispatch: makeDispatchNotification({ outbox, notifier }) };
}

describe("dispatching a notification", () => {
  test("a ready delivery tells its customer and the message is marked dispatched", async () => {
    const { outbox, notifier, dispatch } = setUp();
    const id = await outbox.add("fulfillment.ready", { ...DELIVERY, internal: "not for the customer" });
    await dispatch({ outbox_id: id }, firstRun());
    expect(notifier.delivered).toEqual([
      {
        outbox_id: id,
        customer_id: "c-1",
        kind: "fulfillment.ready",
        title: "Your purchase is ready",
        body: "Delivery finished. Open your dashboard for the next step.",
        data: { fulfillment_id: "f-1", order_id: "o-1", order_item_id: "i-1", driver: "license_download" },
      },
    ]);
    expect((await outbox.find(id))?.dispatched_at).toBeInstanceOf(Date);
  });

  test("a failed delivery says so and points at the retry", async () => {
    const { outbox, notifier, dispatch } = setUp();
    await dispatch({ outbox_id: await outbox.add("fulfillment.failed", DELIVERY) }, firstRun());
    expect(notifier.delivered[0]).toMatchObject({
      kind: "fulfillment.failed",
      title: "We could not deliver your purchase",
      body: expect.stringContaining("retry it from your dashboard"),
    });
  });

  test("a message already dispatched is not sent again", async () => {
    const { outbox, notifier, dispatch } = setUp();
    const id = await outbox.add("fulfillment.ready", DELIVERY);
    await dispatch({ outbox_id: id }, firstRun());
    await dispatch({ outbox_id: id }, firstRun());
    expect(notifier.delivered).toHaveLength(1);
  });

  test("a notifier failure leaves the message undispatched, so the job's retry sends it", async () => {
    const { outbox, notifier, dispatch } = setUp();
    const id = await outbox.add("fulfillment.ready", DELIVERY);
    notifier.fail(new Error("mail server down"));
    await expect(dispatch({ outbox_id: id }, firstRun())).rejects.toThrow("mail server down");
    expect((await outbox.find(id))?.dispatched_at).toBeNull();
    notifier.recover();
    await dispatch({ outbox_id: id }, firstRun());
    expect(notifier.delivered).toHaveLength(1);
  });

  test("a message that does not exist fails the job for good", async () => {
    const { notifier, dispatch } = setUp();
    await expect(dispatch({ outbox_id: crypto.randomUUID() }, firstRun())).rejects.toBeInstanceOf(PermanentJobFailure);
    // A payload that names no message is refused as it is read back, before the handler runs.
    expect(() => notifyJob.read({})).toThrow(PermanentJobFailure);
    expect(notifier.delivered).toEqual([]);
  });

  test("with mail, the notification is also queued as an email keyed by the message; a queue failure retries the job", async () => {
    const outbox = createInMemoryNotificationOutbox();
    const notifier = createRecordingNotifier();
    const queued: NewEmail[] = [];
    let queueDown = true;
    const mail = {
      facts: {
        forFulfillment: async (id: string) =>
          id === "f-1"
            ? {
                customer_id: "cus-ada",
                customer_guest: false,
                customer_email: "ada@example.com",
                customer_name: "Ada",
                product_name: "Point of Sale",
                order_id: "o-1",
                driver: "multitenant_saas",
                workspace_url: null,
                attempts: 1,
                awaiting: null,
              }
            : undefined,
      },
      queue: {
        async queue(email: NewEmail) {
          if (queueDown) throw new Error("database unavailable");
          if (!queued.some((existing) => existing.key === email.key)) queued.push(email);
        },
      },
      publicBaseUrl: "https://shop.example",
      guestLinks: {
        orderStatus: async (orderId: string) => `https://shop.example/orders/${orderId}?access=signed`,
        claim: async () => "https://shop.example/account/claim?token=t",
      },
    };
    const dispatch = makeDispatchNotification({ outbox, notifier, mail });
    const id = await outbox.add("fulfillment.ready", DELIVERY);
    await expect(dispatch({ outbox_id: id }, firstRun())).rejects.toThrow("database unavailable");
    expect((await outbox.find(id))?.dispatched_at).toBeNull();
    queueDown = false;
    await dispatch({ outbox_id: id }, firstRun());
    await dispatch({ outbox_id: id }, firstRun());
    expect(queued).toEqual([
      expect.objectContaining({ key: `notification:${id}`, template: "fulfillment.ready", to: "ada@example.com" }),
    ]);
    expect((await outbox.find(id))?.dispatched_at).toBeInstanceOf(Date);
  });
});
