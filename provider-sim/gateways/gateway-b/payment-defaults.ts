/** What the defaults read of a sandbox payment (a `Payment`). */
interface Payment {
  readonly id: string;
  readonly amount: number;
  readonly created: number;
  readonly status: string;
  readonly customer: string | null;
}

/**
 * The fields of Stripe's PaymentIntent, Charge, Refund and Dispute that the sandbox never varies:
 * every sandbox payment is made with Stripe's Visa test card 4242 4242 4242 4242, captured at once,
 * with no Connect, Radar review, shipping or statement descriptor of its own.
 */
const ADDRESS = { city: null, country: "US", line1: null, line2: null, postal_code: null, state: null } as const;

/** The card's PaymentMethod: one per payment, named after its intent. */
export const paymentMethodOf = (payment: Payment) => `pm_${payment.id.slice(3)}`;

export function chargeDefaults(payment: Payment) {
  const paid = payment.status === "succeeded";
  return {
    application: null,
    application_fee: null,
    application_fee_amount: null,
    billing_details: { address: ADDRESS, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: "SANDBOX",
    failure_balance_transaction: null,
    fraud_details: {},
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: paid ? "approved_by_network" : "declined_by_network",
      reason: paid ? null : "generic_decline",
      risk_level: "normal",
      risk_score: 20,
      seller_message: paid ? "Payment complete." : "The bank did not return any further details with this decline.",
      type: paid ? "authorized" : "issuer_declined",
    },
    payment_method: paymentMethodOf(payment),
    payment_method_details: {
      card: {
        amount_authorized: paid ? payment.amount : null,
        authorization_code: null,
        brand: "visa",
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
        country: "US",
        electronic_commerce_indicator: null,
        exp_month: 12,
        exp_year: 2034,
        extended_authorization: { status: "disabled" },
        fingerprint: "sbxVisa4242card0",
        funding: "credit",
        incremental_authorization: { status: "unavailable" },
        installments: null,
        last4: "4242",
        mandate: null,
        multicapture: { status: "unavailable" },
        network: "visa",
        network_token: { used: false },
        network_transaction_id: paid ? `${payment.created}00000` : null,
        overcapture: { maximum_amount_capturable: payment.amount, status: "unavailable" },
        regulated_status: "unregulated",
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
      type: "card",
    },
    radar_options: {},
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    transfer_data: null,
    transfer_group: null,
  } as const;
}

export function paymentIntentDefaults(payment: Payment) {
  return {
    allowed_payment_method_types: null,
    amount_capturable: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${payment.id}_secret_sandbox`,
    confirmation_method: "automatic",
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    managed_payments: null,
    next_action: null,
    on_behalf_of: null,
    payment_method: paymentMethodOf(payment),
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    transfer_group: null,
  } as const;
}

/** A card refund is on its way to the card network until the sandbox settles it, which it never reports. */
export function refundDefaults(payment: Payment) {
  return {
    customer: payment.customer,
    customer_account: null,
    destination_details: {
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
      type: "card",
    },
    payment_method: paymentMethodOf(payment),
    source_transfer_reversal: null,
    transfer_reversal: null,
  } as const;
}

const NO_EVIDENCE = {
  access_activity_log: null,
  billing_address: null,
  cancellation_policy: null,
  cancellation_policy_disclosure: null,
  cancellation_rebuttal: null,
  customer_communication: null,
  customer_email_address: null,
  customer_name: null,
  customer_purchase_ip: null,
  customer_signature: null,
  duplicate_charge_documentation: null,
  duplicate_charge_explanation: null,
  duplicate_charge_id: null,
  enhanced_evidence: {},
  product_description: null,
  receipt: null,
  refund_policy: null,
  refund_policy_disclosure: null,
  refund_refusal_explanation: null,
  service_date: null,
  service_documentation: null,
  shipping_address: null,
  shipping_carrier: null,
  shipping_date: null,
  shipping_documentation: null,
  shipping_tracking_number: null,
  uncategorized_file: null,
  uncategorized_text: null,
} as const;

/** A card chargeback on which no evidence has been given. */
export const DISPUTE_DEFAULTS = {
  enhanced_eligibility_types: [] as readonly never[],
  evidence: NO_EVIDENCE,
  intended_submission_method: null,
  payment_method_details: {
    card: { brand: "visa", case_type: "chargeback", network: "visa", network_reason_code: null },
    type: "card",
  },
} as const;
