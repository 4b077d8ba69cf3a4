import { expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, buyAndPay, createProduct, eventually, http, registerCustomer, useE2e } from "../support/e2e.ts";
import { simControl } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

/** The sandboxes tax every price at 20 %; the marketplace states its tax behaviour on each price. */
test.each([
  ["gateway_a", "exclusive", { amount: 5880, tax: 980 }],
  ["gateway_a", "inclusive", { amount: 4900, tax: 817 }],
  ["gateway_b", "exclusive", { amount: 5880, tax: 980 }],
  ["gateway_b", "inclusive", { amount: 4900, tax: 817 }],
] as const)("%s, prices %s of tax: paid, delivered, the tax on the payment", async (gateway, behavior, charged) => {
  const admin = await adminToken(e2e);
  expect(
    (await http(e2e.url, "PUT", `/api/admin/${gateway}/settings`, { token: admin, body: { tax_behavior: behavior } }))
      .status,
  ).toBe(200);
  await simControl(e2e, `/__sim/${gateway}/tax`, { rate: 0.2 });
  try {
    const product = await createProduct(e2e, aLicenseProduct());
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], gateway);
    const order = await eventually(
      async () => {
        const found = await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token: admin });
        return found.body.status === "paid" ? found.body : undefined;
      },
      3000,
      "a paid order",
    );
    expect(order).toMatchObject({ tax_behavior: behavior, needs_attention: false });
    expect(order.payments).toEqual([
      expect.objectContaining({ amount: charged.amount, tax: charged.tax, currency: "USD" }),
    ]);
    await eventually(
      async () => {
        const [record] = await db.current.sql<
          { status: string }[]
        >`select status from fulfillment_records where order_id = ${orderId}`;
        return record?.status === "active";
      },
      3000,
      "a delivered license",
    );
  } finally {
    await simControl(e2e, `/__sim/${gateway}/tax`, { rate: 0 });
  }
});
