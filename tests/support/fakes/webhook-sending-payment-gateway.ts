import { createHash } from "node:crypto";
import type { PaymentGateway, WebhookRequest } from "../../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import { InvalidWebhookPayload, InvalidWebhookSignature } from "../../../domain/payments/errors.ts";
import type { GatewayEnvironment, GatewayEvent } from "../../../domain/payments/gateway-event.ts";
import { createInMemoryPaymentGateway } from "./in-memory-payment-gateway.ts";

type Method = Exclude<keyof PaymentGateway, "name">;

const signatureOf = (environment: GatewayEnvironment, body: Uint8Array) =>
  `${environment}:${createHash("sha256").update(body).digest("hex")}`;

/**
 * A webhook as this fake gateway sends it: the neutral event itself as JSON (its wire format),
 * signed over the bytes for `environment`. Pass `body` to sign other bytes.
 */
export function signedWebhook(
  event: GatewayEvent | null,
  options: { environment?: GatewayEnvironment; body?: Uint8Array } = {},
): WebhookRequest {
  const rawBody = options.body ?? new TextEncoder().encode(JSON.stringify(event));
  return { rawBody, headers: { "x-signature": signatureOf(options.environment ?? "sandbox", rawBody) } };
}

const isEvent = (value: unknown): value is GatewayEvent =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { kind?: unknown }).kind === "string" &&
  typeof (value as { event_id?: unknown }).event_id === "string";

/**
 * The in-memory gateway (checkout, refunds, subscriptions) that also sends webhooks: it verifies
 * `signedWebhook`'s signature, normalizes its body (the event as JSON), and resolves a payment
 * pointer to every id it knows the payment by (a pointer naming only an invoice resolves to
 * `pi_for_<invoice>`, as a Stripe invoice does). Every call is recorded in `calls`; `fail` makes
 * any method throw until `recover`.
 */
export function createWebhookSendingPaymentGateway(name: PaymentGatewayName) {
  const base = createInMemoryPaymentGateway(name);
  const failures = new Map<Method, Error>();
  const record = (method: Method, args: unknown[]) => {
    base.calls.push({ method, args });
    const failure = failures.get(method);
    if (failure) throw failure;
  };

  const webhooks: Pick<PaymentGateway, "verifyWebhook" | "normalizeWebhookPayload" | "resolvePayment"> = {
    async verifyWebhook(request) {
      record("verifyWebhook", [request]);
      const signature = request.headers["x-signature"];
      for (const environment of ["sandbox", "live"] as const) {
        if (signature === signatureOf(environment, request.rawBody)) return { environment };
      }
      throw new InvalidWebhookSignature("no secret matches");
    },
    normalizeWebhookPayload(payload) {
      record("normalizeWebhookPayload", [payload]);
      if (!isEvent(payload)) throw new InvalidWebhookPayload("not an event of the fake gateway");
      return payload;
    },
    async resolvePayment(pointer) {
      record("resolvePayment", [pointer]);
      const paymentId = pointer.payment_id ?? `pi_for_${pointer.invoice_id}`;
      return {
        payment_id: paymentId,
        payment_intent_id: pointer.payment_intent_id ?? (paymentId.startsWith("pi_") ? paymentId : null),
        charge_id: pointer.charge_id ?? null,
        invoice_id: pointer.invoice_id ?? null,
      };
    },
  };

  return {
    ...base,
    ...webhooks,
    fail(method: Method, error: Error) {
      failures.set(method, error);
      base.fail(method, error);
    },
    recover(method: Method) {
      failures.delete(method);
      base.recover(method);
    },
  };
}

export type WebhookSendingPaymentGateway = ReturnType<typeof createWebhookSendingPaymentGateway>;
