import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import type { RecordedCall, RecordedExchange } from "../../../../provider-sim/gateways/exchange-recorder.ts";
import { checkExchanges } from "../../../../scripts/lib/gateway-types/type-check.ts";
import { aCustomer } from "../../../adapters/gateways/gateway-a/paddle-fixtures.ts";

let seq = 0;
const call = (fields: Partial<RecordedCall> & Pick<RecordedCall, "gateway" | "method" | "route">): RecordedCall => ({
  seq: ++seq,
  kind: "call",
  path: fields.route,
  query: {},
  request: null,
  status: 200,
  response: {},
  ...fields,
});

const paddleMeta = { request_id: "req_1" };
const refund = {
  id: "re_1",
  object: "refund",
  amount: 1000,
  balance_transaction: null,
  charge: "ch_1",
  created: 1_790_000_000,
  currency: "usd",
  metadata: { order_id: "ord_1" },
  payment_intent: "pi_1",
  reason: null,
  receipt_number: null,
  status: "succeeded",
  customer: null,
  payment_method: null,
  source_transfer_reversal: null,
  transfer_reversal: null,
};

const { transfer_reversal: _, ...withoutTransferReversal } = refund;

const customer = aCustomer();
const { locale: __, ...withoutLocale } = customer;
const paddleCustomer = (data: object) =>
  call({ gateway: "gateway_a", method: "GET", route: "/customers/{id}", response: { data, meta: paddleMeta } });

// Each exchange below is judged on its own; `seq` ties the findings back to it.
const exchanges: RecordedExchange[] = [
  // 1: Stripe's form scalars are strings on the wire and still match numbers in the params.
  call({
    gateway: "gateway_b",
    method: "POST",
    route: "/v1/checkout/sessions",
    request: {
      mode: "payment",
      client_reference_id: "12345",
      line_items: [
        { quantity: "1", price_data: { currency: "usd", unit_amount: "2900", product_data: { name: "POS" } } },
      ],
      metadata: { order_id: "ord_1" },
    },
    status: 400,
    response: { error: { type: "invalid_request_error", message: "No such price." } },
  }),
  // 2: a value of the wrong type, deep in an array.
  call({
    gateway: "gateway_b",
    method: "POST",
    route: "/v1/checkout/sessions",
    request: { mode: "payment", line_items: [{ price: "price_1", quantity: "lots" }] },
    status: 400,
    response: { error: {} },
  }),
  // 3: a complete refund, but one field too many and one missing.
  call({
    gateway: "gateway_b",
    method: "POST",
    route: "/v1/refunds",
    request: { payment_intent: "pi_1", amount: "1000" },
    response: { ...withoutTransferReversal, customer_account: null, colour: "green" },
  }),
  // 4: Paddle's wire keys are camelCased back before the SDK's request type judges them.
  call({
    gateway: "gateway_a",
    method: "POST",
    route: "/transactions",
    request: { items: [{ price_id: "pri_1", quantity: 1 }], customer_id: "ctm_1", custom_data: { order_id: "ord_1" } },
    status: 400,
    response: {
      error: {
        type: "request_error",
        code: "bad_request",
        detail: "x",
        documentation_url: "https://developer.paddle.com",
      },
      meta: paddleMeta,
    },
  }),
  // 5: a field Paddle does not have.
  call({
    gateway: "gateway_a",
    method: "POST",
    route: "/transactions",
    request: { items: [], customer: { email: "a@b.c" } },
    status: 400,
    response: {
      error: { type: "request_error", code: "bad_request", detail: "x", documentation_url: "u" },
      meta: paddleMeta,
    },
  }),
  // 6: a route nobody mapped.
  call({ gateway: "gateway_b", method: "GET", route: "/v1/payouts/{id}" }),
  // 7: a body on a route that takes none.
  call({
    gateway: "gateway_a",
    method: "GET",
    route: "/subscriptions/{id}",
    request: { effective_from: "now" },
    status: 404,
    response: {
      error: { type: "request_error", code: "not_found", detail: "x", documentation_url: "u" },
      meta: paddleMeta,
    },
  }),
  // 8: an event the gateway does not have.
  { seq: ++seq, kind: "webhook", gateway: "gateway_a", event_type: "refund.happened", event: {} },
  // 9: a Stripe event whose type the package does not know.
  { seq: ++seq, kind: "webhook", gateway: "gateway_b", event_type: "charge.teleported", event: { id: "evt_1" } },
  // 10 to 13: a Paddle object complete, then missing a field, with one too many, and with a value outside the type.
  paddleCustomer(customer),
  paddleCustomer(withoutLocale),
  paddleCustomer({ ...customer, phone: "1" }),
  paddleCustomer({ ...customer, status: "gone" }),
];

test("each exchange is judged against its official type, and each finding names the exchange and the field", () => {
  const report = checkExchanges(exchanges);
  const of = (n: number) =>
    report.findings
      .filter((finding) => finding.seqs.includes(n))
      .map((finding) => `${finding.direction} ${finding.path || "-"}: ${finding.message}`);

  expect(of(1)).toEqual([]);
  expect(of(2)).toEqual([
    expect.stringMatching(
      /^request line_items\[0\]\.quantity: TS2322: Type 'string' is not assignable to type 'number'/,
    ),
  ]);
  expect(of(3)).toEqual(["response -: missing: transfer_reversal", "response -: not in the type: colour"]);
  expect(of(4)).toEqual([]);
  expect(of(5)).toEqual(["request -: not in the type: customer"]);
  expect(of(6)).toEqual(["response -: no official type is mapped for this route"]);
  expect(of(7)).toEqual(["request -: a request was sent to a route that takes none"]);
  expect(of(8)).toEqual(["event -: no official type is mapped for this event"]);
  expect(of(9)).toEqual([
    expect.stringMatching(/^event -: TS2724: .* has no exported member named 'ChargeTeleportedEvent'/),
  ]);
  expect(of(10)).toEqual([]);
  expect(of(11)).toEqual(["response data: missing: locale"]);
  expect(of(12)).toEqual(["response data: not in the type: phone"]);
  expect(of(13)).toEqual([`response data.status: TS2322: Type '"gone"' is not assignable to type 'Status'.`]);
  expect(report.checked).toBe(16);
  expect(report.passed).toBe(9);
  rmSync(report.directory, { recursive: true });
}, 60_000);
