/**
 * The fields of Stripe's Invoice that the sandbox never varies, as Stripe answers them for a
 * subscription invoice finalized at once and charged automatically: no customer balance, credit
 * notes, tax IDs, shipping, custom rendering, revision or test clock. Of the customer, the sandbox
 * keeps only the email given at checkout (copied by the builder), so name, phone and address are null.
 */
export const INVOICE_DEFAULTS = {
  account_tax_ids: null,
  application: null,
  automatically_finalizes_at: null,
  custom_fields: null,
  customer_account: null,
  customer_address: null,
  customer_name: null,
  customer_phone: null,
  customer_shipping: null,
  customer_tax_exempt: "none",
  customer_tax_ids: [] as readonly never[],
  default_source: null,
  default_tax_rates: [] as readonly never[],
  ending_balance: 0,
  footer: null,
  from_invoice: null,
  invoice_pdf: null,
  latest_revision: null,
  on_behalf_of: null,
  payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
  post_payment_credit_notes_amount: 0,
  pre_payment_credit_notes_amount: 0,
  receipt_number: null,
  rendering: null,
  shipping_cost: null,
  shipping_details: null,
  starting_balance: 0,
  statement_descriptor: null,
  test_clock: null,
} as const;
