import type { PaymentDocumentRef } from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { browserLink } from "../browser-link.ts";
import type { PaddleCall, PaddleEnvelope } from "./paddle-http.ts";

/**
 * A transaction's invoice PDF at Paddle (`GET /transactions/{id}/invoice`), opened in the browser
 * (`disposition=inline`). The link expires after an hour, so it is asked for each time. Paddle has
 * none for a transaction that is not completed or of no value: it refuses with a 400, which is no
 * document rather than a failure.
 */
export async function paddlePaymentDocument(
  send: (call: PaddleCall) => Promise<PaddleEnvelope>,
  payment: PaymentDocumentRef,
): Promise<string | undefined> {
  let data: unknown;
  try {
    ({ data } = await send({
      method: "GET",
      target: `/transactions/${encodeURIComponent(payment.payment_id)}/invoice`,
      query: { disposition: "inline" },
    }));
  } catch (error) {
    if (error instanceof UpstreamRejected && error.status === 400) return undefined;
    throw error;
  }
  return browserLink(isRecord(data) ? data.url : undefined, "the invoice answer's url");
}
