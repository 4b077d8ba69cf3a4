import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import { DISPUTE_DEFAULTS } from "./payment-defaults.ts";
import type { StripeDispute } from "./payment-model.ts";
import type { PaymentLedger } from "./payments.ts";

const RESPONSE_WINDOW_S = 7 * 86_400;

export type DisputeBook = ReturnType<typeof createDisputeBook>;

/** Disputes the sandbox opens and closes on demand; a real one is opened by the card issuer. */
export function createDisputeBook(ledger: PaymentLedger) {
  const disputes = new Map<string, StripeDispute>();

  function get(id: string): StripeDispute {
    const found = disputes.get(id);
    if (!found) throw StripeError.noSuch("dispute", id);
    return found;
  }

  return {
    get,
    open(chargeId: string, input: { reason: StripeDispute["reason"]; amount: number | null }, now: number) {
      const payment = ledger.charge(chargeId);
      if (payment.status !== "succeeded")
        throw StripeError.invalid("charge", "only a succeeded charge can be disputed");
      if (payment.disputed) {
        throw new StripeError(
          409,
          "invalid_request_error",
          `Charge ${chargeId} is already disputed.`,
          "charge_disputed",
        );
      }
      const amount = input.amount ?? payment.amount;
      if (amount > payment.amount) throw StripeError.invalid("amount", `must be at most ${payment.amount}`);
      const dispute: StripeDispute = {
        id: newGatewayId("dp"),
        object: "dispute",
        ...DISPUTE_DEFAULTS,
        amount,
        balance_transactions: [],
        charge: payment.charge,
        created: now,
        currency: payment.currency,
        evidence_details: {
          due_by: now + RESPONSE_WINDOW_S,
          enhanced_eligibility: {},
          has_evidence: false,
          past_due: false,
          submission_count: 0,
          submission_method: "not_submitted",
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: payment.id,
        reason: input.reason,
        status: "needs_response",
      };
      disputes.set(dispute.id, dispute);
      return { dispute, payment: ledger.save({ ...payment, disputed: true }) };
    },
    close(id: string, outcome: "won" | "lost"): StripeDispute {
      const dispute = get(id);
      if (dispute.status !== "needs_response") {
        throw new StripeError(409, "invalid_request_error", `The dispute ${id} is already ${dispute.status}.`);
      }
      const closed = { ...dispute, status: outcome };
      disputes.set(id, closed);
      return closed;
    },
    clear: () => disputes.clear(),
  };
}
