import { describe, expect, test } from "bun:test";
import type { OrderDetails } from "../../../application/checkout/ports.ts";
import { makePaymentDocuments } from "../../../application/customers/payment-documents.ts";
import type { Payment } from "../../../domain/payments/payment.ts";
import { aPaidOrder } from "../../support/builders/orders.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";

const order = aPaidOrder({ customer_id: "cus-ada", payment_gateway: "gateway_a" });
const aPayment = (id: string, overrides: Partial<Payment> = {}): Payment => ({
  id,
  order_id: order.id,
  gateway: "gateway_a",
  payment_id: `txn_${id}`,
  kind: "initial",
  amount: 4900,
  tax: 0,
  currency: "USD",
  refunded_amount: 0,
  charged_back_amount: 0,
  invoice_id: null,
  charge_id: null,
  payment_intent_id: null,
  created_at: new Date(),
  ...overrides,
});

function setup(answer?: string) {
  const details: OrderDetails = {
    order,
    items: [],
    payments: [aPayment("p1"), aPayment("p2", { gateway: "gateway_b", payment_id: "pi_2", invoice_id: "in_2" })],
    refunds: [],
    disputes: [],
  };
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  if (answer === "none") gateways.gateway_a.paymentDocumentUrl = async () => undefined;
  const documents = makePaymentDocuments({
    orders: { find: async (id) => (id === order.id ? details : undefined) },
    gateways,
    // The order's access is its id backwards: enough to tell a right one from a wrong one.
    access: {
      sign: async (id) => [...id].reverse().join(""),
      verify: async (id, token) => token === [...id].reverse().join(""),
    },
  });
  return { documents, gateways };
}

const ADA = { customerId: "cus-ada" };

describe("a payment's invoice or receipt", () => {
  test("is asked of the payment's own gateway, with every id the payment is known by", async () => {
    const { documents, gateways } = setup();
    expect(await documents(ADA, order.id, "p2")).toBe("https://documents.gateway_b.test/pi_2");
    expect(gateways.gateway_b.callsOf("paymentDocumentUrl")).toEqual([
      [{ payment_id: "pi_2", invoice_id: "in_2", charge_id: null, payment_intent_id: null }],
    ]);
    expect(gateways.gateway_a.callsOf("paymentDocumentUrl")).toEqual([]);
  });

  test("another customer's order and an unknown payment are not found, and the gateway is not asked", async () => {
    const { documents, gateways } = setup();
    await expect(documents({ customerId: "cus-bob" }, order.id, "p1")).rejects.toMatchObject({
      code: "ORDER_NOT_FOUND",
    });
    await expect(documents(ADA, order.id, "p9")).rejects.toMatchObject({ code: "PAYMENT_NOT_FOUND" });
    expect(gateways.gateway_a.calls).toEqual([]);
  });

  test("the order's signed access opens it without a session; a wrong access is not found before anything is read", async () => {
    const { documents, gateways } = setup();
    const access = [...order.id].reverse().join("");
    expect(await documents({ access }, order.id, "p1")).toBe("https://documents.gateway_a.test/txn_p1");
    await expect(documents({ access: `${access}0` }, order.id, "p1")).rejects.toMatchObject({
      code: "ORDER_NOT_FOUND",
    });
    await expect(documents({ access: "" }, order.id, "p1")).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });
    expect(gateways.gateway_a.callsOf("paymentDocumentUrl")).toHaveLength(1);
  });

  test("a payment the gateway keeps no document for is INVOICE_NOT_AVAILABLE", async () => {
    const { documents } = setup("none");
    await expect(documents(ADA, order.id, "p1")).rejects.toMatchObject({ code: "INVOICE_NOT_AVAILABLE" });
  });
});
