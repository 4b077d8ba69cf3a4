import { describe, expect, test } from "bun:test";
import { createExpiringLinkSigner } from "../../../adapters/security/expiring-links.ts";
import type { OrderDetails } from "../../../application/checkout/ports.ts";
import { makeEmailedLinks } from "../../../application/customers/emailed-links.ts";
import { invoiceLink, makePaymentDocuments } from "../../../application/customers/payment-documents.ts";
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
  discount: 0,
  currency: "USD",
  refunded_amount: 0,
  charged_back_amount: 0,
  invoice_id: null,
  charge_id: null,
  payment_intent_id: null,
  created_at: new Date(),
  ...overrides,
});

let now = new Date("2026-11-28T12:00:00.000Z");

function setup(answer?: string) {
  const details: OrderDetails = {
    order,
    items: [],
    payments: [aPayment("p1"), aPayment("p2", { gateway: "gateway_b", payment_id: "pi_2", invoice_id: "in_2" })],
    refunds: [],
    subscriptions: [],
    disputes: [],
  };
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  if (answer === "none") gateways.gateway_a.paymentDocumentUrl = async () => undefined;
  const links = makeEmailedLinks({
    signer: createExpiringLinkSigner("a-secret-of-at-least-thirty-two-characters", "invoice"),
    clock: () => now,
    publicBaseUrl: "https://shop.example",
    ttlSeconds: 3600,
  });
  const documents = makePaymentDocuments({
    orders: { find: async (id) => (id === order.id ? details : undefined) },
    gateways,
    links,
  });
  return { documents, gateways, links };
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

  test("an emailed link opens its own payment's invoice without a session, until it expires", async () => {
    const { documents, gateways, links } = setup();
    const link = new URL(await invoiceLink(links, order.id, "p1"));
    expect(link.pathname).toBe(`/api/orders/${order.id}/payments/p1/invoice`);
    const signed = {
      expiresAt: Number(link.searchParams.get("expires")),
      access: link.searchParams.get("access") ?? "",
    };
    expect(await documents({ link: signed }, order.id, "p1")).toBe("https://documents.gateway_a.test/txn_p1");
    // The link names one payment: another payment of the same order is not opened with it.
    await expect(documents({ link: signed }, order.id, "p2")).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });
    await expect(documents({ link: { ...signed, access: `${signed.access}0` } }, order.id, "p1")).rejects.toMatchObject(
      {
        code: "ORDER_NOT_FOUND",
      },
    );
    now = new Date(now.getTime() + 3601_000);
    await expect(documents({ link: signed }, order.id, "p1")).rejects.toMatchObject({ code: "LINK_EXPIRED" });
    expect(gateways.gateway_a.callsOf("paymentDocumentUrl")).toHaveLength(1);
  });

  test("a payment the gateway keeps no document for is INVOICE_NOT_AVAILABLE", async () => {
    const { documents } = setup("none");
    await expect(documents(ADA, order.id, "p1")).rejects.toMatchObject({ code: "INVOICE_NOT_AVAILABLE" });
  });
});
