import { describe, expect, test } from "bun:test";
import { http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { UpstreamBadResponse } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { adjustmentPage, aTransaction, BASE, failure, noAdjustments, ok, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });

describe("refund", () => {
  test("a full refund posts a full adjustment", async () => {
    let body: unknown;
    server.use(
      noAdjustments(),
      http.post(`${BASE}/adjustments`, async ({ request }) => {
        body = await request.json();
        return ok(
          { id: "adj_01", status: "pending_approval", totals: { total: "2900", currency_code: "USD" } },
          {},
          201,
        );
      }),
    );
    const result = await gateway.refund({ payment_id: "txn_01", order_id: "ord_1", currency: "USD" }, null, "rf_1");
    expect(result).toEqual({ refund_id: "adj_01", status: "pending" });
    expect(body).toEqual({
      action: "refund",
      transaction_id: "txn_01",
      reason: "Refund rf_1 for order ord_1",
      type: "full",
    });
  });

  test("a partial refund names the transaction's first line item and the amount", async () => {
    let body: unknown;
    server.use(
      noAdjustments(),
      http.get(`${BASE}/transactions/txn_01`, () => ok(aTransaction())),
      http.post(`${BASE}/adjustments`, async ({ request }) => {
        body = await request.json();
        return ok({ id: "adj_02", status: "approved", totals: { total: "1000", currency_code: "USD" } });
      }),
    );
    const result = await gateway.refund({ payment_id: "txn_01", order_id: "ord_1", currency: "USD" }, 1000, "rf_1");
    expect(result).toEqual({ refund_id: "adj_02", status: "succeeded" });
    expect(body).toEqual({
      action: "refund",
      transaction_id: "txn_01",
      reason: "Refund rf_1 for order ord_1",
      type: "partial",
      items: [{ item_id: "txnitm_01", type: "partial", amount: "1000" }],
    });
  });

  test("a rejected adjustment is a failed refund; an unknown status is a bad response", async () => {
    server.use(
      noAdjustments(),
      http.post(`${BASE}/adjustments`, () => ok({ id: "adj_03", status: "rejected" })),
    );
    const payment = { payment_id: "txn_01", order_id: "ord_1", currency: "USD" };
    expect(await gateway.refund(payment, null, "rf_1")).toEqual({ refund_id: "adj_03", status: "failed" });
    server.use(http.post(`${BASE}/adjustments`, () => ok({ id: "adj_04", status: "sideways" })));
    expect(await failure(gateway.refund(payment, null, "rf_1"))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("asks Paddle first for the transaction's refunds, and a retry answers with the one already made", async () => {
    const lookups: URLSearchParams[] = [];
    let created = 0;
    server.use(
      http.get(`${BASE}/adjustments`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        lookups.push(query);
        if (query.get("after") === null) {
          return adjustmentPage(
            [{ id: "adj_10", status: "approved", reason: "Refund rf_0 for order ord_1" }],
            `${BASE}/adjustments?transaction_id=txn_01&action=refund&after=adj_10`,
          );
        }
        return adjustmentPage([{ id: "adj_11", status: "approved", reason: "Refund rf_1 for order ord_1" }]);
      }),
      http.post(`${BASE}/adjustments`, () => {
        created += 1;
        return ok({ id: "adj_12", status: "approved" });
      }),
    );
    const result = await gateway.refund({ payment_id: "txn_01", order_id: "ord_1", currency: "USD" }, 1000, "rf_1");
    expect(result).toEqual({ refund_id: "adj_11", status: "succeeded" });
    expect(created).toBe(0);
    expect(lookups[0]?.get("transaction_id")).toBe("txn_01");
    expect(lookups[0]?.get("action")).toBe("refund");
    expect(lookups).toHaveLength(2);
  });

  test("a lookup answering garbage makes no adjustment", async () => {
    let created = 0;
    server.use(
      http.get(`${BASE}/adjustments`, () => ok({ not: "a list" })),
      http.post(`${BASE}/adjustments`, () => {
        created += 1;
        return ok({ id: "adj_13", status: "approved" });
      }),
    );
    const payment = { payment_id: "txn_01", order_id: "ord_1", currency: "USD" };
    expect(await failure(gateway.refund(payment, null, "rf_1"))).toBeInstanceOf(UpstreamBadResponse);
    expect(created).toBe(0);
  });
});
