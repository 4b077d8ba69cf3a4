import type { CheckoutClosure } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { PaddleTransactionBusy } from "./errors.ts";
import type { PaddleCall, PaddleEnvelope } from "./paddle-http.ts";

/** `TransactionStatus` of @paddle/paddle-node-sdk. */
const TRANSACTION_STATUSES = new Set(["draft", "ready", "billed", "paid", "completed", "canceled", "past_due"]);
/** The statuses Paddle still lets a customer pay from, and so lets us cancel from. */
const PAYABLE = new Set(["draft", "ready"]);

function transactionStatus(data: unknown): string {
  if (!isRecord(data) || typeof data.status !== "string" || !TRANSACTION_STATUSES.has(data.status)) {
    throw new UpstreamBadResponse("gateway", "the transaction has no known status");
  }
  return data.status;
}

/**
 * Cancels a checkout transaction: `PATCH /transactions/{id}` with only `{"status": "canceled"}`
 * (Paddle refuses a cancellation sent with other changes). Only `draft` and `ready` transactions
 * can be changed; any other is refused with a 400 (`transaction_immutable`), so the transaction is
 * read back then: one that is no longer payable (paid, completed, canceled) is already closed.
 */
export async function cancelPaddleTransaction(
  send: (call: PaddleCall) => Promise<PaddleEnvelope>,
  transactionId: string,
): Promise<CheckoutClosure> {
  const target = `/transactions/${encodeURIComponent(transactionId)}`;
  try {
    const status = transactionStatus((await send({ method: "PATCH", target, body: { status: "canceled" } })).data);
    if (status !== "canceled") throw new UpstreamBadResponse("gateway", `the cancelled transaction is ${status}`);
    return { closed_now: true, status };
  } catch (error) {
    if (!(error instanceof UpstreamRejected)) throw error;
    if (error.status === 404) return { closed_now: false, status: "not_found" };
    if (error.status === 409) throw new PaddleTransactionBusy();
    if (error.status !== 400) throw error;
    const status = transactionStatus((await send({ method: "GET", target })).data);
    if (PAYABLE.has(status)) throw error;
    return { closed_now: false, status };
  }
}
