import { newGatewayId } from "../ids.ts";
import { splitTax } from "../tax.ts";
import { PaddleError } from "./errors.ts";
import type { RefundInput } from "./requests.ts";
import type { AdjustmentAction, PaddleAdjustment, PaddleTransaction } from "./transaction-model.ts";

interface Taken {
  readonly item_id: string;
  /** Minor units including tax, as Paddle's adjustment item amounts are. */
  readonly amount: number;
  readonly type: "full" | "partial";
}

export type AdjustmentBook = ReturnType<typeof createAdjustmentBook>;

/**
 * Refunds and chargebacks of the gateway_a sandbox, approved at once. What each line item has given
 * back so far is kept, so nothing is refunded or charged back twice; a reversal gives it back.
 */
export function createAdjustmentBook() {
  const taken = new Map<string, number>();
  const openChargebacks = new Map<string, PaddleAdjustment>();
  /** Every adjustment made, in order, for `GET /adjustments`. */
  let made: PaddleAdjustment[] = [];

  function line(transaction: PaddleTransaction, itemId: string) {
    const found = transaction.details.line_items.find((candidate) => candidate.id === itemId);
    if (!found) throw PaddleError.invalidField("items.item_id", `${itemId} is not an item of ${transaction.id}`);
    return { line: found, left: Number(found.totals.total) - (taken.get(itemId) ?? 0) };
  }

  function adjustment(
    transaction: PaddleTransaction,
    action: AdjustmentAction,
    reason: string,
    items: readonly Taken[],
    now: string,
  ): PaddleAdjustment {
    const lines = items.map((item) => {
      const rate = Number(line(transaction, item.item_id).line.tax_rate);
      const split = splitTax(item.amount, rate, true);
      const totals = { subtotal: String(split.net), tax: String(split.tax), total: String(split.gross) };
      return { ...item, split, totals };
    });
    const sum = (pick: (split: { net: number; tax: number; gross: number }) => number) =>
      String(lines.reduce((total, entry) => total + pick(entry.split), 0));
    const type = items.every((item) => item.type === "full") ? "full" : "partial";
    const created: PaddleAdjustment = {
      id: newGatewayId("adj"),
      action,
      type,
      transaction_id: transaction.id,
      subscription_id: transaction.subscription_id,
      customer_id: transaction.customer_id ?? "",
      reason,
      credit_applied_to_balance: false,
      currency_code: transaction.currency_code,
      status: "approved",
      items: lines.map((entry) => ({
        id: newGatewayId("adjitm"),
        item_id: entry.item_id,
        type: entry.type,
        amount: String(entry.amount),
        proration: null,
        totals: { subtotal: entry.totals.subtotal, tax: entry.totals.tax, total: entry.totals.total },
      })),
      totals: {
        subtotal: sum((s) => s.net),
        tax: sum((s) => s.tax),
        total: sum((s) => s.gross),
        fee: "0",
        earnings: sum((s) => s.net),
        retained_fee: "0",
        currency_code: transaction.currency_code,
      },
      payout_totals: null,
      created_at: now,
      updated_at: now,
    };
    made = [...made, created];
    return created;
  }

  function take(items: readonly Taken[], sign: 1 | -1) {
    for (const item of items) taken.set(item.item_id, (taken.get(item.item_id) ?? 0) + sign * item.amount);
  }

  /** What is left on each line, up to `amount` in all when given. */
  function remaining(transaction: PaddleTransaction, amount: number | null): Taken[] {
    let budget = amount ?? Number.POSITIVE_INFINITY;
    const items: Taken[] = [];
    for (const entry of transaction.details.line_items) {
      const left = Math.min(line(transaction, entry.id).left, budget);
      if (left <= 0) continue;
      budget -= left;
      items.push({ item_id: entry.id, amount: left, type: amount === null ? "full" : "partial" });
    }
    return items;
  }

  return {
    refund(transaction: PaddleTransaction, input: RefundInput, now: string): PaddleAdjustment {
      const wanted =
        input.type === "full"
          ? remaining(transaction, null)
          : input.items.map((item) => {
              const { left } = line(transaction, item.item_id);
              const amount = item.amount === null ? left : Number(item.amount);
              if (amount > left) {
                throw PaddleError.invalidField("items.amount", `exceeds the ${left} left to refund on ${item.item_id}`);
              }
              return {
                item_id: item.item_id,
                amount,
                type: item.amount === null ? ("full" as const) : ("partial" as const),
              };
            });
      const items = wanted.filter((item) => item.amount > 0);
      if (items.length === 0) throw PaddleError.invalidField("transaction_id", "has nothing left to refund");
      take(items, 1);
      return adjustment(transaction, "refund", input.reason, items, now);
    },
    chargeback(transaction: PaddleTransaction, amount: number | null, now: string): PaddleAdjustment {
      if (openChargebacks.has(transaction.id)) throw PaddleError.conflict(`${transaction.id} is already charged back.`);
      const items = remaining(transaction, amount);
      if (items.length === 0) throw PaddleError.invalidField("transaction_id", "has nothing left to charge back");
      take(items, 1);
      const created = adjustment(transaction, "chargeback", "chargeback", items, now);
      openChargebacks.set(transaction.id, created);
      return created;
    },
    reverseChargeback(transaction: PaddleTransaction, now: string): PaddleAdjustment {
      const open = openChargebacks.get(transaction.id);
      if (!open) throw PaddleError.conflict(`${transaction.id} has no chargeback to reverse.`);
      openChargebacks.delete(transaction.id);
      const items = open.items.map((item) => ({ item_id: item.item_id, amount: Number(item.amount), type: item.type }));
      take(items, -1);
      return adjustment(transaction, "chargeback_reverse", "chargeback reversed", items, now);
    },
    all: (): readonly PaddleAdjustment[] => made,
    clear() {
      taken.clear();
      openChargebacks.clear();
      made = [];
    },
  };
}
