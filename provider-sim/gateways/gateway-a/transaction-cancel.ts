import { PaddleError } from "./errors.ts";
import type { Json } from "./model.ts";
import type { PaddleTransaction } from "./transaction-model.ts";

/**
 * The one change `PATCH /transactions/{id}` supports here: `{"status": "canceled"}`, alone, as
 * Paddle requires of a cancellation (other changes with it are refused).
 */
export function cancellationRequest(body: Json): void {
  if (body.status !== "canceled") {
    throw PaddleError.invalidField("status", "must be canceled (the sandbox changes transactions no other way)");
  }
  if (Object.keys(body).length > 1) {
    throw new PaddleError(
      400,
      "transaction_cannot_be_modified_and_canceled",
      "Cannot update transaction to canceled, along with other fields at the same time",
    );
  }
}

/**
 * A transaction canceled at `now`. Paddle changes only `draft` and `ready` transactions: billed,
 * completed and canceled ones are immutable. A canceled checkout can no longer be paid.
 */
export function canceledTransaction(transaction: PaddleTransaction, now: string): PaddleTransaction {
  if (transaction.status !== "draft" && transaction.status !== "ready") {
    throw new PaddleError(400, "transaction_immutable", "Cannot update immutable transaction");
  }
  return { ...transaction, status: "canceled", updated_at: now };
}
