import { describe, expect, test } from "bun:test";
import { checkLiterals } from "./paddle-types/literal-check.ts";
import { recordPaddleExchanges } from "./paddle-types/paddle-exchanges.ts";
import {
  eventSample,
  requestSamples,
  responseSample,
  SDK_IMPORTS,
  SDK_INTERNAL_IMPORTS,
} from "./paddle-types/wire-types.ts";

const check = (samples: Parameters<typeof checkLiterals>[2]) =>
  checkLiterals(SDK_IMPORTS, SDK_INTERNAL_IMPORTS, samples);

describe("gateway_a speaks Paddle as the official SDK types it (tsc --strict, object literals)", () => {
  test("every request the marketplace sends, every answer and every webhook of the sandbox", async () => {
    const recorded = await recordPaddleExchanges();
    const samples = [
      ...recorded.sentByMarketplace.flatMap(requestSamples),
      ...recorded.exchanges.map(responseSample),
      ...recorded.events.map(eventSample),
    ];
    const problems = await check(samples);
    expect(problems).toEqual([]);

    // What was checked covers every kind of object and event the sandbox produces.
    const kinds = new Set(recorded.exchanges.map((exchange) => responseSample(exchange).type));
    expect([...kinds].sort()).toEqual([
      "ErrorResponse",
      "Response<IAdjustmentResponse>",
      "Response<ICustomerResponse>",
      "Response<IEventTypeResponse[]>",
      "Response<IPriceResponse>",
      "Response<IProductResponse>",
      "Response<ISubscriptionResponse>",
      "Response<ITransactionResponse>",
      "ResponsePaginated<ICustomerResponse>",
      "ResponsePaginated<IPriceResponse>",
      "ResponsePaginated<IProductResponse>",
    ]);
    expect([...new Set(recorded.events.map((event) => event.event_type))].sort()).toEqual([
      "adjustment.created",
      "subscription.activated",
      "subscription.canceled",
      "subscription.past_due",
      "subscription.updated",
      "transaction.completed",
      "transaction.paid",
      "transaction.past_due",
      "transaction.payment_failed",
    ]);
    const sent = new Set(recorded.sentByMarketplace.flatMap(requestSamples).map((sample) => sample.type));
    expect([...sent].sort()).toEqual([
      "CancelSubscription",
      "CreateAdjustmentRequestBody",
      "CreateCustomerRequestBody",
      "CreatePriceRequestBody",
      "CreateProductRequestBody",
      "CreateTransactionRequestBody",
      "ListCustomerQueryParameters",
      "ListProductQueryParameters",
      "UpdatePriceRequestBody",
      "UpdateSubscriptionRequestBody",
    ]);
  }, 120_000);

  test("the check fails on a missing field, a field the type lacks and a value outside the type", async () => {
    const customer = {
      id: "ctm_01",
      name: null,
      email: "ada@example.com",
      marketing_consent: false,
      status: "active",
      custom_data: null,
      locale: "en",
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
    };
    const { locale: _, ...missing } = customer;
    const problems = await check([
      { label: "complete", type: "ICustomerResponse", value: customer },
      { label: "missing", type: "ICustomerResponse", value: missing },
      { label: "extra", type: "ICustomerResponse", value: { ...customer, phone: "1" } },
      { label: "outside", type: "ICustomerResponse", value: { ...customer, status: "gone" } },
      { label: "wrong request", type: "CreateTransactionRequestBody", value: { items: [], customer: { email: "a" } } },
    ]);
    expect(problems.map((problem) => problem.split(":")[0])).toEqual(["missing", "extra", "outside", "wrong request"]);
  }, 60_000);
});
