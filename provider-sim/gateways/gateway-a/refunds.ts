import { newGatewayId } from "../ids.ts";
import { PaddleError } from "./errors.ts";
import type { PaddleAdjustment, PaddleTransaction } from "./model.ts";
import type { RefundInput } from "./requests.ts";

/** What each refunded line item gives back: the rest of it for `full`, else the amount asked for. */
function refundItems(transaction: PaddleTransaction, input: RefundInput, refunded: ReadonlyMap<string, number>) {
  const remaining = (itemId: string) => {
    const line = transaction.details.line_items.find((candidate) => candidate.id === itemId);
    if (!line) throw PaddleError.invalidField("items.item_id", `${itemId} is not an item of ${transaction.id}`);
    return Number(line.totals.total) - (refunded.get(itemId) ?? 0);
  };
  const wanted =
    input.type === "full"
      ? transaction.details.line_items.map((line) => ({ item_id: line.id, amount: null }))
      : input.items;
  const items = wanted.map((item) => {
    const left = remaining(item.item_id);
    const amount = item.amount === null ? left : Number(item.amount);
    if (amount > left) {
      throw PaddleError.invalidField("items.amount", `exceeds the ${left} left to refund on ${item.item_id}`);
    }
    const type: "full" | "partial" = item.amount === null ? "full" : "partial";
    return { id: newGatewayId("adjitm"), item_id: item.item_id, type, amount };
  });
  const positive = items.filter((item) => item.amount > 0);
  if (positive.length === 0) throw PaddleError.invalidField("transaction_id", "has nothing left to refund");
  return positive;
}

/**
 * A refund adjustment for a completed transaction, approved at once as the sandbox approves every
 * refund; `refunded` (minor units per line item id) is updated so nothing is refunded twice.
 */
export function approveRefund(
  transaction: PaddleTransaction,
  input: RefundInput,
  refunded: Map<string, number>,
  now: string,
): PaddleAdjustment {
  const items = refundItems(transaction, input, refunded);
  for (const item of items) refunded.set(item.item_id, (refunded.get(item.item_id) ?? 0) + item.amount);
  const total = String(items.reduce((sum, item) => sum + item.amount, 0));
  const currency = transaction.currency_code;
  return {
    id: newGatewayId("adj"),
    action: "refund",
    type: input.type,
    transaction_id: transaction.id,
    subscription_id: transaction.subscription_id,
    customer_id: null,
    reason: input.reason,
    currency_code: currency,
    status: "approved",
    items: items.map((item) => ({ ...item, amount: String(item.amount) })),
    totals: { subtotal: total, tax: "0", total, fee: "0", earnings: total, currency_code: currency },
    created_at: now,
    updated_at: now,
  };
}
