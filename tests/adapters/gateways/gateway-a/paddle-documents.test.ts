import { describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { UpstreamBadResponse, UpstreamRejected, UpstreamServerError } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { BASE, ok, paddleError, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });
const payment = (payment_id: string) => ({ payment_id, invoice_id: null, charge_id: null, payment_intent_id: null });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("a transaction's invoice at Paddle", () => {
  test("is asked for each time, to open in the browser, and its link is answered", async () => {
    const asked: URL[] = [];
    server.use(
      http.get(`${BASE}/transactions/txn_01/invoice`, ({ request }) => {
        asked.push(new URL(request.url));
        return ok({ url: "https://paddle-invoices.test/txn_01.pdf?expires=1" });
      }),
    );
    expect(await gateway.paymentDocumentUrl(payment("txn_01"))).toBe(
      "https://paddle-invoices.test/txn_01.pdf?expires=1",
    );
    expect(await gateway.paymentDocumentUrl(payment("txn_01"))).toBe(
      "https://paddle-invoices.test/txn_01.pdf?expires=1",
    );
    expect(asked.map((url) => url.searchParams.get("disposition"))).toEqual(["inline", "inline"]);
  });

  test("a transaction Paddle keeps no invoice for (400) is no document; other refusals and failures are typed", async () => {
    server.use(
      http.get(`${BASE}/transactions/txn_zero/invoice`, () => paddleError(400, "transaction_invoice_not_available")),
      http.get(`${BASE}/transactions/txn_gone/invoice`, () => paddleError(404, "not_found")),
      http.get(`${BASE}/transactions/txn_down/invoice`, () => new HttpResponse("down", { status: 503 })),
      http.get(`${BASE}/transactions/txn_odd/invoice`, () => ok({ url: "ftp://paddle.test/x" })),
      http.get(`${BASE}/transactions/txn_none/invoice`, () => ok({})),
    );
    expect(await gateway.paymentDocumentUrl(payment("txn_zero"))).toBeUndefined();
    expect(await failure(gateway.paymentDocumentUrl(payment("txn_gone")))).toBeInstanceOf(UpstreamRejected);
    expect(await failure(gateway.paymentDocumentUrl(payment("txn_down")))).toBeInstanceOf(UpstreamServerError);
    expect(await failure(gateway.paymentDocumentUrl(payment("txn_odd")))).toBeInstanceOf(UpstreamBadResponse);
    expect(await failure(gateway.paymentDocumentUrl(payment("txn_none")))).toBeInstanceOf(UpstreamBadResponse);
  });
});
