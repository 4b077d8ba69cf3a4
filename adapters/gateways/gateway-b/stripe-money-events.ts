import type { GatewayEvent, PaymentPointer } from "../../../domain/payments/gateway-event.ts";
import { metadataOrderId, readEvent as read, type StripeEnvelope } from "./stripe-event-reader.ts";
import type { Fields } from "./stripe-fields.ts";

/** A charge names its payment intent, and on older API versions its invoice. */
function chargePointer(charge: Fields): PaymentPointer {
  const intent = read.optionalId(charge, "payment_intent");
  return {
    payment_id: intent,
    payment_intent_id: intent,
    charge_id: read.string(charge, "id"),
    invoice_id: read.optionalId(charge, "invoice"),
  };
}

/** `charge.refunded`: a charge reports everything refunded on it so far, not the refund that just happened. */
export function chargeRefunded(base: StripeEnvelope, charge: Fields): GatewayEvent {
  return {
    ...base,
    kind: "refunded",
    payment: chargePointer(charge),
    order_id: metadataOrderId(charge),
    refund_id: null,
    amount: read.integer(charge, "amount_refunded"),
    cumulative: true,
    currency: read.string(charge, "currency").toUpperCase(),
  };
}

const DISPUTE_OUTCOMES: Readonly<Record<string, "dispute_won" | "dispute_lost">> = {
  won: "dispute_won",
  lost: "dispute_lost",
};

/** `charge.dispute.created` opens it; `charge.dispute.closed` settles it as `won` or `lost` (else: ignored). */
export function disputeEvent(base: StripeEnvelope, dispute: Fields, type: string): GatewayEvent {
  const kind = type === "charge.dispute.created" ? "dispute_opened" : DISPUTE_OUTCOMES[read.string(dispute, "status")];
  if (kind === undefined) return { ...base, kind: "ignored", type };
  const intent = read.optionalId(dispute, "payment_intent");
  return {
    ...base,
    kind,
    payment: { payment_id: intent, payment_intent_id: intent, charge_id: read.id(dispute, "charge") },
    order_id: metadataOrderId(dispute),
    dispute_id: read.string(dispute, "id"),
    amount: read.integer(dispute, "amount"),
    currency: read.string(dispute, "currency").toUpperCase(),
  };
}
