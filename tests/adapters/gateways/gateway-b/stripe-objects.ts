export const aStripeSubscription = (overrides: Record<string, unknown> = {}) => ({
  id: "sub_1",
  object: "subscription",
  status: "trialing",
  customer: "cus_1",
  current_period_end: 1775044800,
  trial_end: 1773576000,
  canceled_at: null,
  cancel_at_period_end: false,
  metadata: { order_id: "ord_1" },
  items: {
    object: "list",
    data: [
      {
        id: "si_1",
        quantity: 1,
        current_period_start: 1772366400,
        current_period_end: 1775044800,
        price: { id: "price_1", product: "prod_1", recurring: { interval: "month", interval_count: 1 } },
      },
    ],
  },
  ...overrides,
});
