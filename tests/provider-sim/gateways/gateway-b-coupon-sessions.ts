import { expect } from "bun:test";
import type { GatewaySim } from "./harness.ts";

/** One inline-priced line: one-time unless `every` names its interval. */
export interface Line {
  readonly amount: number;
  readonly every?: "month" | "year";
  readonly currency?: string;
  readonly name?: string;
}

/** `POST /v1/checkout/sessions` over `lines`, with `discounts[0][coupon]` when `coupon` is given; the raw answer. */
export function couponSession(sim: GatewaySim, lines: readonly Line[], coupon?: string) {
  const form: Record<string, string | number> = {
    mode: lines.some((line) => line.every) ? "subscription" : "payment",
    client_reference_id: "ord_coupon",
    "metadata[order_id]": "ord_coupon",
    customer_email: "ada@example.com",
    ...(coupon === undefined ? {} : { "discounts[0][coupon]": coupon }),
  };
  lines.forEach((line, i) => {
    const at = `line_items[${i}]`;
    form[`${at}[quantity]`] = 1;
    form[`${at}[price_data][currency]`] = line.currency ?? "usd";
    form[`${at}[price_data][unit_amount]`] = line.amount;
    form[`${at}[price_data][product_data][name]`] = line.name ?? `Line ${i + 1}`;
    if (line.every) form[`${at}[price_data][recurring][interval]`] = line.every;
  });
  return sim.b("POST", "/checkout/sessions", form);
}

/** A session over `lines` with `coupon`, paid on the hosted page; the session as it then reads. */
export async function paidCouponSession(sim: GatewaySim, lines: readonly Line[], coupon?: string) {
  const created = await couponSession(sim, lines, coupon);
  expect(created.status).toBe(200);
  expect((await sim.plain("POST", `/checkout/gateway_b/${created.body.id}/pay`)).status).toBe(200);
  return (await sim.b("GET", `/checkout/sessions/${created.body.id}`)).body;
}

export async function createCoupon(sim: GatewaySim, form: Record<string, string | number>) {
  const created = await sim.b("POST", "/coupons", form);
  expect(created.status).toBe(200);
  return created.body;
}

/** The subscription's current period ends now; the control's answer (outcome, invoice, subscription). */
export async function renew(sim: GatewaySim, subscription: string) {
  const renewed = await sim.plain("POST", `/__sim/gateway_b/subscriptions/${subscription}/renew`);
  expect(renewed.status).toBe(200);
  return renewed.body;
}

/** What a payment intent took for an invoice, read through its invoice payment. */
export async function chargedFor(sim: GatewaySim, invoice: string) {
  const payments = (await sim.b("GET", `/invoice_payments?invoice=${invoice}`)).body.data;
  if (payments.length === 0) return 0;
  return (await sim.b("GET", `/payment_intents/${payments[0].payment.payment_intent}`)).body.amount as number;
}
