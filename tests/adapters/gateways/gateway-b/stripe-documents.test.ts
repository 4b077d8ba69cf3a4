import { describe, expect, test } from "bun:test";
import { HttpResponse } from "msw";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import { UpstreamBadResponse, UpstreamRejected, UpstreamServerError } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { failure, mockStripeApi, stripeError } from "./stripe-api-mock.ts";

const { answer } = mockStripeApi();
const gateway = createStripeGateway({ settings: createStaticGatewaySettings() });
const payment = (overrides: Partial<Parameters<typeof gateway.paymentDocumentUrl>[0]> = {}) => ({
  payment_id: "pi_1",
  invoice_id: null,
  charge_id: null,
  payment_intent_id: "pi_1",
  ...overrides,
});

describe("a payment's document at Stripe", () => {
  test("a subscription payment links its invoice's hosted page, else its PDF", async () => {
    answer("get", "/v1/invoices/in_1", {
      id: "in_1",
      object: "invoice",
      hosted_invoice_url: "https://invoice.stripe.test/i/1",
    });
    answer("get", "/v1/invoices/in_2", {
      id: "in_2",
      object: "invoice",
      hosted_invoice_url: null,
      invoice_pdf: "https://pay.stripe.test/2/pdf",
    });
    expect(await gateway.paymentDocumentUrl(payment({ invoice_id: "in_1" }))).toBe("https://invoice.stripe.test/i/1");
    expect(await gateway.paymentDocumentUrl(payment({ invoice_id: "in_2" }))).toBe("https://pay.stripe.test/2/pdf");
  });

  test("any other payment links its charge's receipt, the intent's latest charge when the charge is not known", async () => {
    const intent = answer("get", "/v1/payment_intents/pi_1", {
      id: "pi_1",
      object: "payment_intent",
      latest_charge: "ch_1",
    });
    answer("get", "/v1/charges/ch_1", {
      id: "ch_1",
      object: "charge",
      receipt_url: "https://pay.stripe.test/receipts/ch_1",
    });
    expect(await gateway.paymentDocumentUrl(payment())).toBe("https://pay.stripe.test/receipts/ch_1");
    expect(await gateway.paymentDocumentUrl(payment({ charge_id: "ch_1" }))).toBe(
      "https://pay.stripe.test/receipts/ch_1",
    );
    expect(intent).toHaveLength(1);
  });

  test("no charge or no receipt is no document; a link that is not a web address is a bad answer", async () => {
    answer("get", "/v1/payment_intents/pi_1", { id: "pi_1", object: "payment_intent", latest_charge: null });
    expect(await gateway.paymentDocumentUrl(payment())).toBeUndefined();
    answer("get", "/v1/charges/ch_2", { id: "ch_2", object: "charge", receipt_url: null });
    expect(await gateway.paymentDocumentUrl(payment({ charge_id: "ch_2" }))).toBeUndefined();
    answer("get", "/v1/charges/ch_3", { id: "ch_3", object: "charge", receipt_url: "javascript:alert(1)" });
    expect(await failure(gateway.paymentDocumentUrl(payment({ charge_id: "ch_3" })))).toBeInstanceOf(
      UpstreamBadResponse,
    );
  });

  test("Stripe's failures come back typed: a refusal, a server error, a body that is not an object", async () => {
    answer(
      "get",
      "/v1/charges/ch_404",
      stripeError("invalid_request_error", "No such charge", "resource_missing"),
      404,
    );
    expect(await failure(gateway.paymentDocumentUrl(payment({ charge_id: "ch_404" })))).toBeInstanceOf(
      UpstreamRejected,
    );
    answer("get", "/v1/charges/ch_500", () => new HttpResponse("oops", { status: 500 }));
    expect(await failure(gateway.paymentDocumentUrl(payment({ charge_id: "ch_500" })))).toBeInstanceOf(
      UpstreamServerError,
    );
    answer("get", "/v1/charges/ch_bad", () => HttpResponse.json([1, 2]));
    expect(await failure(gateway.paymentDocumentUrl(payment({ charge_id: "ch_bad" })))).toBeInstanceOf(
      UpstreamBadResponse,
    );
  });
});
