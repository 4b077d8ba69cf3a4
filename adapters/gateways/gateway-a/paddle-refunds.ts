import {
  type GatewayRuntimeSettings,
  REFUND_ATTEMPT_MAX_CALLS,
  type RefundResult,
} from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import type { JsonObject } from "./paddle-fields.ts";
import { type PaddleEnvelope, sendPaddle } from "./paddle-http.ts";
import { readFirstLineItemId, readRefundAdjustment } from "./paddle-payment-schemas.ts";
import { paddleRefundBody } from "./paddle-request-bodies.ts";

/**
 * A bound on following `next` links (a transaction has a handful of adjustments, never pages of
 * them): with the transaction read and the POST, one refund stays within `REFUND_ATTEMPT_MAX_CALLS`,
 * which the reservation's claim is long enough for.
 */
export const MAX_PAGES = REFUND_ATTEMPT_MAX_CALLS - 2;

/**
 * Paddle takes no idempotency key and an adjustment has no custom data: the marketplace's refund
 * id goes into the reason, the one field of an adjustment it can be found by again.
 */
export const paddleRefundReason = (orderId: string, reference: string) => `Refund ${reference} for order ${orderId}`;

function readAdjustmentPage(envelope: PaddleEnvelope): { adjustments: JsonObject[]; next: URL | null } {
  if (!Array.isArray(envelope.data) || !envelope.data.every(isRecord)) {
    throw new UpstreamBadResponse("gateway", "the adjustment list is not an array of objects");
  }
  const pagination = isRecord(envelope.meta) && isRecord(envelope.meta.pagination) ? envelope.meta.pagination : null;
  if (pagination === null || typeof pagination.has_more !== "boolean") {
    throw new UpstreamBadResponse("gateway", "meta.pagination is missing");
  }
  if (!pagination.has_more) return { adjustments: envelope.data, next: null };
  if (typeof pagination.next !== "string" || !URL.canParse(pagination.next)) {
    throw new UpstreamBadResponse("gateway", "meta.pagination.next is not a URL");
  }
  return { adjustments: envelope.data, next: new URL(pagination.next) };
}

/** The refund adjustment made earlier for `reason` on the transaction, if there is one. */
async function findRefundAdjustment(
  settings: GatewayRuntimeSettings,
  transactionId: string,
  reason: string,
): Promise<JsonObject | undefined> {
  let page = await sendPaddle(settings, {
    method: "GET",
    target: "/adjustments",
    query: { transaction_id: transactionId, action: "refund", per_page: "50" },
  });
  for (let pages = 1; ; pages++) {
    const { adjustments, next } = readAdjustmentPage(page);
    const found = adjustments.find((adjustment) => adjustment.reason === reason);
    if (found) return found;
    if (next === null) return undefined;
    // Saying "none" after a cut-off could refund twice.
    if (pages >= MAX_PAGES)
      throw new UpstreamBadResponse("gateway", `the adjustment list goes past ${MAX_PAGES} pages`);
    page = await sendPaddle(settings, { method: "GET", target: next });
  }
}

/**
 * A refund at Paddle, made once per `reference`: the transaction's refund adjustments are looked up
 * first, so asking again (after a timeout, a crash) answers with the adjustment already made.
 */
export async function refundAtPaddle(
  settings: GatewayRuntimeSettings,
  payment: { readonly payment_id: string; readonly order_id: string },
  amount: number | null,
  reference: string,
): Promise<RefundResult> {
  const reason = paddleRefundReason(payment.order_id, reference);
  const made = await findRefundAdjustment(settings, payment.payment_id, reason);
  if (made) return readRefundAdjustment(made);
  let partial = null;
  if (amount !== null) {
    const { data } = await sendPaddle(settings, {
      method: "GET",
      target: `/transactions/${encodeURIComponent(payment.payment_id)}`,
    });
    partial = { itemId: readFirstLineItemId(data), amount };
  }
  const { data } = await sendPaddle(settings, {
    method: "POST",
    target: "/adjustments",
    body: { ...paddleRefundBody(payment.payment_id, payment.order_id, partial), reason },
  });
  return readRefundAdjustment(data);
}
