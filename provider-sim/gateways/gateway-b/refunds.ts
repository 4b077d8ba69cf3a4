import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import { metadata, optionalInteger, optionalString, rejectUnknown } from "./params.ts";
import { refundDefaults } from "./payment-defaults.ts";
import type { Payment, StripeRefund } from "./payment-model.ts";
import type { PaymentLedger } from "./payments.ts";

function paymentFor(ledger: PaymentLedger, form: FormObject): Payment {
  const intent = optionalString(form.payment_intent, "payment_intent");
  const charge = optionalString(form.charge, "charge");
  if (intent === null && charge === null) throw StripeError.missing("payment_intent");
  const payment = intent !== null ? ledger.intent(intent, "payment_intent") : ledger.charge(charge as string, "charge");
  if (payment.status !== "succeeded") {
    throw new StripeError(
      400,
      "invalid_request_error",
      `Charge ${payment.charge} has not succeeded.`,
      "charge_not_refundable",
    );
  }
  return payment;
}

/** `POST /v1/refunds`: refunds the rest of the payment, or `amount` of it; the sandbox refunds at once. */
export function refundPayment(ledger: PaymentLedger, form: FormObject, created: number) {
  const payment = paymentFor(ledger, form);
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
  const updated = ledger.save({ ...payment, refunded: payment.refunded + amount });
  const refund: StripeRefund = {
    id: newGatewayId("re"),
    object: "refund",
    ...refundDefaults(payment),
    amount,
    balance_transaction: null,
    charge: payment.charge,
    created,
    currency: payment.currency,
    metadata: metadata(form.metadata, "metadata"),
    payment_intent: payment.id,
    reason: optionalString(form.reason, "reason"),
    receipt_number: null,
    status: "succeeded",
  };
  return { refund, payment: updated };
}

/**
 * `GET /v1/refunds`, Stripe's way: newest first, optionally only a payment intent's or a charge's,
 * `limit` (1 to 100, default 10) at a time, `starting_after` a listed refund's id to page on.
 */
export function listRefunds(refunds: readonly StripeRefund[], query: Readonly<Record<string, string | undefined>>) {
  const given: FormObject = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  rejectUnknown(given, ["payment_intent", "charge", "limit", "starting_after"]);
  const intent = optionalString(query.payment_intent, "payment_intent");
  const charge = optionalString(query.charge, "charge");
  const limit = optionalInteger(query.limit, "limit", 1, 100) ?? 10;
  const after = optionalString(query.starting_after, "starting_after");
  const matching = [...refunds]
    .reverse()
    .filter(
      (refund) =>
        (intent === null || refund.payment_intent === intent) && (charge === null || refund.charge === charge),
    );
  let from = 0;
  if (after !== null) {
    const at = matching.findIndex((refund) => refund.id === after);
    if (at < 0) {
      throw new StripeError(
        404,
        "invalid_request_error",
        `No such refund: '${after}'`,
        "resource_missing",
        "starting_after",
      );
    }
    from = at + 1;
  }
  const data = matching.slice(from, from + limit);
  return { object: "list" as const, url: "/v1/refunds", has_more: from + limit < matching.length, data };
}
