import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import type { Payment, StripeRefund } from "./model.ts";
import { metadata, optionalInteger, optionalString } from "./params.ts";

/** The charge a `charge.refunded` event carries: `amount_refunded` is the total refunded so far. */
export function chargeOf(payment: Payment, created: number) {
  return {
    id: payment.charge,
    object: "charge" as const,
    amount: payment.amount,
    amount_captured: payment.amount,
    amount_refunded: payment.refunded,
    currency: payment.currency,
    paid: true,
    captured: true,
    refunded: payment.refunded >= payment.amount,
    status: "succeeded" as const,
    payment_intent: payment.id,
    metadata: payment.metadata,
    created,
    livemode: false,
  };
}

function paymentFor(payments: ReadonlyMap<string, Payment>, form: FormObject): Payment {
  const intent = optionalString(form.payment_intent, "payment_intent");
  const charge = optionalString(form.charge, "charge");
  if (intent === null && charge === null) throw StripeError.missing("payment_intent");
  const payment = [...payments.values()].find((candidate) =>
    intent !== null ? candidate.id === intent : candidate.charge === charge,
  );
  if (!payment) {
    throw intent !== null
      ? StripeError.noSuch("payment_intent", intent, "payment_intent")
      : StripeError.noSuch("charge", charge as string, "charge");
  }
  return payment;
}

/** `POST /v1/refunds`: refunds the rest of the payment, or `amount` of it; the sandbox refunds at once. */
export function refundPayment(payments: Map<string, Payment>, form: FormObject, created: number) {
  const payment = paymentFor(payments, form);
  const left = payment.amount - payment.refunded;
  if (left === 0) {
    throw new StripeError(
      400,
      "invalid_request_error",
      `Charge ${payment.charge} has already been refunded.`,
      "charge_already_refunded",
    );
  }
  const amount = optionalInteger(form.amount, "amount", 1, 99_999_999) ?? left;
  if (amount > left) {
    throw new StripeError(
      400,
      "invalid_request_error",
      `Refund amount (${amount}) is greater than the unrefunded amount (${left}).`,
      "amount_too_large",
      "amount",
    );
  }
  const updated = { ...payment, refunded: payment.refunded + amount };
  payments.set(payment.id, updated);
  const refund: StripeRefund = {
    id: newGatewayId("re"),
    object: "refund",
    amount,
    currency: payment.currency,
    status: "succeeded",
    payment_intent: payment.id,
    charge: payment.charge,
    reason: optionalString(form.reason, "reason"),
    metadata: metadata(form.metadata, "metadata"),
    created,
  };
  return { refund, charge: chargeOf(updated, created) };
}
