import { describe, expect, test } from "bun:test";
import type { NewEmail } from "../../../application/mail/ports.ts";
import {
  makeDispatchNotification,
  type NotificationMail,
} from "../../../application/notifications/dispatch-notification.ts";
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

const SUBSCRIPTION_MAIL = {
  licenseFacts: {
    forLicense: async (id: string) =>
      id === "l-1"
        ? {
            customer_id: "cus-ada",
            customer_guest: false,
            customer_email: "ada@example.com",
            customer_name: "Ada",
            product_name: "Ledger",
            order_id: "o-1",
            license_key: "MKT1.new.key",
          }
        : undefined,
  },
  downloadLink: async (entitlementId: string) => ({
    url: `https://shop.example/api/downloads/${entitlementId}.signed`,
    expires_at: new Date("2026-06-08T00:00:00.000Z"),
  }),
  subscriptionFacts: {
    forSubscription: async (id: string) =>
      id === "s-1"
        ? {
            customer_id: "cus-ada",
            customer_guest: false,
            customer_email: "ada@example.com",
            customer_name: "Ada",
            product_name: "Point of Sale",
            order_id: "o-1",
          }
        : undefined,
  },
  subscriptionLinks: {
    billingPortal: async (id: string) => `https://shop.example/api/subscriptions/${id}/billing-portal?access=signed`,
    invoice: async (orderId: string, paymentId: string) =>
      `https://shop.example/api/orders/${orderId}/payments/${paymentId}/invoice?access=signed`,
  },
};

const SUBSCRIPTION = { subscription_id: "s-1", order_id: "o-1", order_item_id: "i-1", customer_id: "cus-ada" };

function withMail(facts: NotificationMail["facts"] = { forFulfillment: async () => undefined }) {
  const outbox = createInMemoryNotificationOutbox();
  const notifier = createRecordingNotifier();
  const queued: NewEmail[] = [];
  const mail = {
    ...SUBSCRIPTION_MAIL,
    facts,
    queue: {
      async queue(email: NewEmail) {
        queued.push(email);
      },
    },
    publicBaseUrl: "https://shop.example",
    guestLinks: {
      orderStatus: async (orderId: string) => `https://shop.example/orders/${orderId}?access=signed`,
      claim: async () => "https://shop.example/account/claim?token=t",
    },
  };
  return { outbox, notifier, queued, dispatch: makeDispatchNotification({ outbox, notifier, mail }) };
}

describe("a subscriber's notifications", () => {
  test("a failed renewal is listed and emailed with the signed link to the billing portal", async () => {
    const { outbox, notifier, queued, dispatch } = withMail();
    const id = await outbox.add("subscription.payment_failed", { ...SUBSCRIPTION, reason: "card_declined" });
    await dispatch({ outbox_id: id }, firstRun());
    expect(notifier.delivered).toEqual([
      expect.objectContaining({
        kind: "subscription.payment_failed",
        title: "We could not renew your subscription",
        data: { subscription_id: "s-1", order_id: "o-1", order_item_id: "i-1" },
      }),
    ]);
    expect(queued).toEqual([
      {
        key: `notification:${id}`,
        template: "subscription.payment_failed",
        to: "ada@example.com",
        data: {
          customer_name: "Ada",
          product_name: "Point of Sale",
          order_url: "https://shop.example/orders/o-1",
          account_label: "Your account",
          account_url: "https://shop.example/account",
          portal_url: "https://shop.example/api/subscriptions/s-1/billing-portal?access=signed",
        },
      },
    ]);
  });

  test("a renewal is emailed with its amount, the new period end and the signed invoice link", async () => {
    const { outbox, queued, dispatch } = withMail();
    const id = await outbox.add("subscription.renewed", {
      ...SUBSCRIPTION,
      payment_id: "p-9",
      amount: 2900,
      currency: "EUR",
      current_period_end: "2027-01-01T10:00:00.000Z",
    });
    await dispatch({ outbox_id: id }, firstRun());
    expect(queued[0]?.data).toMatchObject({
      amount: "29.00 EUR",
      period_end: "1 January 2027",
      invoice_url: "https://shop.example/api/orders/o-1/payments/p-9/invoice?access=signed",
    });
  });

  test("a trial's end is emailed with its day; a subscription that is gone is listed but not emailed", async () => {
    const { outbox, notifier, queued, dispatch } = withMail();
    const id = await outbox.add("subscription.trial_ending", {
      ...SUBSCRIPTION,
      trial_ends_at: "2026-12-04T09:00:00Z",
    });
    await dispatch({ outbox_id: id }, firstRun());
    expect(queued[0]).toMatchObject({ template: "subscription.trial_ending", data: { trial_end: "4 December 2026" } });
    const gone = await outbox.add("subscription.trial_ending", { ...SUBSCRIPTION, subscription_id: "s-gone" });
    await dispatch({ outbox_id: gone }, firstRun());
    expect(queued).toHaveLength(1);
    expect(notifier.delivered).toHaveLength(2);
    expect((await outbox.find(gone))?.dispatched_at).toBeInstanceOf(Date);
  });
});

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
      ...SUBSCRIPTION_MAIL,
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
                license_key: null,
                entitlement_id: null,
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

describe("a license holder's notifications", () => {
  const LICENSE_DELIVERY = {
    customer_id: "cus-ada",
    customer_guest: false,
    customer_email: "ada@example.com",
    customer_name: "Ada",
    product_name: "Ledger",
    order_id: "o-1",
    driver: "license_download",
    workspace_url: null,
    attempts: 1,
    awaiting: null,
    license_key: "MKT1.first.key",
    entitlement_id: "e-1",
  };

  test("a license's ready email carries the key and a download link", async () => {
    const { outbox, queued, dispatch } = withMail({
      forFulfillment: async (id) => (id === "f-1" ? LICENSE_DELIVERY : undefined),
    });
    const id = await outbox.add("fulfillment.ready", DELIVERY);
    await dispatch({ outbox_id: id }, firstRun());
    expect(queued).toEqual([
      expect.objectContaining({
        template: "fulfillment.ready_license",
        to: "ada@example.com",
        data: expect.objectContaining({
          license_key: "MKT1.first.key",
          download_url: "https://shop.example/api/downloads/e-1.signed",
          download_expires: "8 June 2026",
        }),
      }),
    ]);
  });

  test("a reissue is listed without the key and emailed with it; a suspension is emailed without it", async () => {
    const { outbox, notifier, queued, dispatch } = withMail();
    const reissued = await outbox.add("license.reissued", {
      license_id: "l-1",
      customer_id: "cus-ada",
      order_id: "o-1",
    });
    const suspended = await outbox.add("license.suspended", { license_id: "l-1", customer_id: "cus-ada" });
    await dispatch({ outbox_id: reissued }, firstRun());
    await dispatch({ outbox_id: suspended }, firstRun());
    expect(notifier.delivered).toEqual([
      expect.objectContaining({ kind: "license.reissued", data: { license_id: "l-1", order_id: "o-1" } }),
      expect.objectContaining({ kind: "license.suspended", data: { license_id: "l-1" } }),
    ]);
    expect(queued.map((email) => [email.template, email.data.license_key])).toEqual([
      ["license.reissued", "MKT1.new.key"],
      ["license.suspended", undefined],
    ]);
  });
});
