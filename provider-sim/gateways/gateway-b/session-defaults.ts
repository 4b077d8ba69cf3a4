/**
 * The fields of Stripe's Checkout Session that the sandbox never varies, as Stripe answers them
 * for a hosted card checkout created with line items, URLs, a client reference, an email and
 * metadata: no tax automation, promotion codes, consent, custom fields, shipping or Adaptive
 * Pricing. A payment-mode session makes a customer only if needed and no invoice; a
 * subscription-mode one always makes a customer.
 */
export function sessionDefaults(mode: "payment" | "subscription") {
  return {
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    client_secret: null,
    consent: null,
    consent_collection: null,
    currency_conversion: null,
    custom_fields: [] as readonly never[],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer_account: null,
    customer_creation: mode === "payment" ? ("if_required" as const) : ("always" as const),
    integration_identifier: null,

    invoice_creation:
      mode === "payment"
        ? {
            enabled: false,
            invoice_data: {
              account_tax_ids: null,
              custom_fields: null,
              description: null,
              footer: null,
              issuer: null,
              metadata: {},
              rendering_options: null,
            },
          }
        : null,
    locale: null,
    managed_payments: null,
    origin_context: null,
    payment_link: null,
    payment_method_collection: "always" as const,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" as const } },
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [] as readonly never[],
    submit_type: null,
    tax_id_collection: { enabled: false, required: "never" as const },
    ui_mode: "hosted_page" as const,
    wallet_options: null,
  };
}

/**
 * What the hosted page collected from the buyer once a session completes: the email it was given
 * (or none), and the card's country; the sandbox asks for no name, phone or address.
 */
export function customerDetails(email: string | null) {
  return {
    address: { city: null, country: "US", line1: null, line2: null, postal_code: null, state: null },
    business_name: null,
    email,
    individual_name: null,
    name: null,
    phone: null,
    tax_exempt: "none" as const,
    tax_ids: [] as readonly never[],
  };
}

export const COLLECTED_INFORMATION = { business_name: null, individual_name: null, shipping_details: null } as const;
