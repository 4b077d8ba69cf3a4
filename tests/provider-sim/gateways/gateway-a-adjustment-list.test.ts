import { afterEach, describe, expect, test } from "bun:test";
import { createGatewaySim, startMarketplace } from "./harness.ts";
import { paidTransaction } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace> | undefined;
afterEach(() => marketplace?.stop());

describe("gateway_a sandbox: GET /adjustments, with Paddle's list filters", () => {
  test("lists the adjustments of a transaction by action, and filters by id and status", async () => {
    marketplace = startMarketplace();
    const sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
    const one = await paidTransaction(sim, { amount: "5000" });
    const other = await paidTransaction(sim, { amount: "3000" });
    const item = one.details.line_items[0].id;
    const partial = (reason: string, amount: string) => ({
      action: "refund",
      transaction_id: one.id,
      reason,
      type: "partial",
      items: [{ item_id: item, type: "partial", amount }],
    });
    const first = (await sim.a("POST", "/adjustments", { body: partial("Refund rf_1", "1000") })).body.data;
    const second = (await sim.a("POST", "/adjustments", { body: partial("Refund rf_2", "500") })).body.data;
    const elsewhere = { action: "refund", transaction_id: other.id, reason: "Refund rf_3", type: "full" };
    expect((await sim.a("POST", "/adjustments", { body: elsewhere })).status).toBe(201);
    expect((await sim.plain("POST", `/__sim/gateway_a/transactions/${one.id}/chargeback`)).status).toBe(200);

    const refunds = await sim.a("GET", `/adjustments?transaction_id=${one.id}&action=refund`);
    expect(refunds.status).toBe(200);
    expect(refunds.body.data.map((a: { reason: string }) => a.reason)).toEqual(["Refund rf_1", "Refund rf_2"]);
    expect(refunds.body.meta.pagination).toMatchObject({ has_more: false, estimated_total: 2 });

    const everything = await sim.a("GET", `/adjustments?transaction_id=${one.id},${other.id}`);
    expect(everything.body.data.map((a: { action: string }) => a.action)).toEqual([
      "refund",
      "refund",
      "refund",
      "chargeback",
    ]);
    const byId = await sim.a("GET", `/adjustments?id=${second.id}`);
    expect(byId.body.data).toEqual([second]);
    expect((await sim.a("GET", `/adjustments?status=pending_approval`)).body.data).toEqual([]);

    const firstPage = await sim.a("GET", `/adjustments?transaction_id=${one.id}&per_page=1`);
    expect(firstPage.body.data).toEqual([first]);
    expect(firstPage.body.meta.pagination.has_more).toBe(true);
    const next = new URL(firstPage.body.meta.pagination.next);
    const secondPage = await sim.a("GET", `/adjustments${next.search}`);
    expect(secondPage.body.data).toEqual([second]);
  });
});
