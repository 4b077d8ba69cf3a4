import type { Json } from "./model.ts";

/**
 * An object as a webhook carries it. Paddle's notification types (`@paddle/paddle-node-sdk`'s
 * `*NotificationResponse`) differ from the API's in a few places: a subscription has no
 * `management_urls`, and its items' prices no `created_at`/`updated_at` nor their products an
 * `updated_at`; an adjustment's item totals also state `fee`, `earnings` and `currency_code`.
 */
export function asNotification(eventType: string, data: unknown): unknown {
  const group = eventType.split(".")[0];
  if (group === "subscription") return subscriptionNotification(data as Json);
  if (group === "adjustment") return adjustmentNotification(data as Json);
  return data;
}

function subscriptionNotification(subscription: Json): Json {
  const { management_urls: _, items, ...rest } = subscription;
  return {
    ...rest,
    items: (items as Json[]).map((item) => {
      const { created_at: _created, updated_at: _updated, ...price } = item.price as Json;
      const { updated_at: _productUpdated, ...product } = item.product as Json;
      return { ...item, price, product };
    }),
  };
}

function adjustmentNotification(adjustment: Json): Json {
  const currency = adjustment.currency_code;
  return {
    ...adjustment,
    items: (adjustment.items as Json[]).map((item) => {
      const totals = item.totals as Json;
      // The sandbox takes no fee: what is earned is the amount before tax.
      return { ...item, totals: { ...totals, fee: "0", earnings: totals.subtotal, currency_code: currency } };
    }),
  };
}
