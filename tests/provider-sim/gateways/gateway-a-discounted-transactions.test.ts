import { describe, expect, test } from "bun:test";
import { createGatewaySim, type GatewaySim } from "./harness.ts";

const DAY = 86_400;

async function aDiscount(sim: GatewaySim, body: Record<string, unknown>) {
  const created = await sim.a("POST", "/discounts", { body: { description: "Launch", ...body } });
  expect(created.status).toBe(201);
  return created.body.data;
}

/** A checkout transaction over inline one-time prices (minor units, USD unless said otherwise). */
const transactionWith = (sim: GatewaySim, discountId: string, amounts: string[], currency = "USD") =>
  sim.a("POST", "/transactions", {
    body: {
      items: amounts.map((amount) => ({
        price: {
          description: "Checkout line",
          product: { name: "POS Suite", tax_category: "standard" },
          unit_price: { amount, currency_code: currency },
        },
        quantity: 1,
      })),
      discount_id: discountId,
      custom_data: { order_id: "ord_discounted" },
    },
  });

describe("gateway_a transactions with a discount", () => {
  test("12.5 % off 1999 takes 250: the transaction names the discount, and its totals and line agree", async () => {
    const sim = createGatewaySim();
    const percent = await aDiscount(sim, { type: "percentage", amount: "12.5" });
    const created = await transactionWith(sim, percent.id, ["1999"]);
    expect(created.status).toBe(201);
    expect(created.body.data.discount_id).toBe(percent.id);
    expect(created.body.data.details.totals).toMatchObject({
      subtotal: "1999",
      discount: "250",
      tax: "0",
      total: "1749",
      grand_total: "1749",
      balance: "0",
    });
    expect(created.body.data.details.line_items[0].totals).toEqual({
      subtotal: "1999",
      discount: "250",
      tax: "0",
      total: "1749",
    });
  });

  test("the figure is split across lines by their amounts, and the lines add up to the totals", async () => {
    const sim = createGatewaySim();
    const percent = await aDiscount(sim, { type: "percentage", amount: "10" });
    const { details } = (await transactionWith(sim, percent.id, ["333", "333", "333"])).body.data;
    expect(details.totals).toMatchObject({ subtotal: "999", discount: "100", total: "899" });
    expect(details.line_items.map((item: { totals: { discount: string } }) => item.totals.discount)).toEqual([
      "34",
      "33",
      "33",
    ]);
  });

  test("tax is computed on the discounted amount", async () => {
    const sim = createGatewaySim();
    await sim.plain("POST", "/__sim/gateway_a/tax", { body: { rate: 0.2 } });
    const percent = await aDiscount(sim, { type: "percentage", amount: "12.5" });
    const { details } = (await transactionWith(sim, percent.id, ["1999"])).body.data;
    // 1999 - 250 = 1749; 20 % of 1749 is 349.8 -> 350 (not 400 on the undiscounted 1999).
    expect(details.totals).toMatchObject({
      subtotal: "1999",
      discount: "250",
      tax: "350",
      total: "2099",
      grand_total: "2099",
      grand_total_tax: "350",
    });
    expect(details.tax_rates_used[0].totals).toMatchObject({ discount: "250", tax: "350", total: "2099" });
  });

  test("a flat discount larger than the subtotal brings the total to 0, and paying it captures nothing", async () => {
    const sim = createGatewaySim();
    const flat = await aDiscount(sim, { type: "flat", amount: "5000", currency_code: "USD" });
    const created = (await transactionWith(sim, flat.id, ["1999"])).body.data;
    expect(created.details.totals).toMatchObject({ subtotal: "1999", discount: "1999", total: "0", grand_total: "0" });
    expect((await sim.plain("POST", `/checkout/gateway_a/${created.id}/pay`)).status).toBe(200);
    const paid = (await sim.a("GET", `/transactions/${created.id}`)).body.data;
    expect(paid).toMatchObject({ status: "completed", payments: [], details: { totals: { earnings: "0" } } });
  });

  test("paying counts a use; a discount used up to its limit is then refused", async () => {
    const sim = createGatewaySim();
    const limited = await aDiscount(sim, { type: "percentage", amount: "10", usage_limit: 1 });
    const first = (await transactionWith(sim, limited.id, ["1000"])).body.data;
    expect((await sim.a("GET", `/discounts/${limited.id}`)).body.data.times_used).toBe(0);
    await sim.plain("POST", `/checkout/gateway_a/${first.id}/pay`);
    const after = (await sim.a("GET", `/discounts/${limited.id}`)).body.data;
    expect(after).toMatchObject({ times_used: 1, status: "used" });
    const refused = await transactionWith(sim, limited.id, ["1000"]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: "request_error", code: "discount_usage_limit_exceeded" });
  });

  test("an unknown, archived or expired discount is refused with Paddle's 400", async () => {
    const sim = createGatewaySim();
    const unknown = await transactionWith(sim, "dsc_01aaaaaaaaaaaaaaaaaaaaaaaa", ["1000"]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ type: "request_error", code: "transaction_discount_not_found" });

    const archived = await aDiscount(sim, { type: "percentage", amount: "10" });
    await sim.a("PATCH", `/discounts/${archived.id}`, { body: { status: "archived" } });
    const refusedArchived = await transactionWith(sim, archived.id, ["1000"]);
    expect(refusedArchived.status).toBe(400);
    expect(refusedArchived.body.error).toMatchObject({ type: "request_error", code: "entity_archived" });

    const expiring = await aDiscount(sim, {
      type: "percentage",
      amount: "10",
      expires_at: new Date(sim.clock.now().getTime() + DAY * 1000).toISOString(),
    });
    expect((await transactionWith(sim, expiring.id, ["1000"])).status).toBe(201);
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 2 * DAY } });
    const refusedExpired = await transactionWith(sim, expiring.id, ["1000"]);
    expect(refusedExpired.status).toBe(400);
    expect(refusedExpired.body.error).toMatchObject({ type: "request_error", code: "discount_expired" });
  });

  test("a discount restricted to a product covers only its lines, and is refused when it covers none", async () => {
    const sim = createGatewaySim();
    const product = async (name: string) =>
      (await sim.a("POST", "/products", { body: { name, tax_category: "standard" } })).body.data.id;
    const [suite, printer, other] = [await product("POS Suite"), await product("Printer"), await product("Other")];
    const line = (productId: string, amount: string) => ({
      price: { description: "d", product_id: productId, unit_price: { amount, currency_code: "USD" } },
      quantity: 1,
    });
    const restricted = async (productId: string) =>
      (await aDiscount(sim, { type: "percentage", amount: "50", restrict_to: [productId] })).id;
    const items = [line(suite, "1000"), line(printer, "3000")];
    const covered = await sim.a("POST", "/transactions", { body: { items, discount_id: await restricted(suite) } });
    expect(covered.body.data.details.totals).toMatchObject({ subtotal: "4000", discount: "500", total: "3500" });
    const shares = covered.body.data.details.line_items.map((item: { totals: { discount: string } }) => item.totals);
    expect(shares).toMatchObject([{ discount: "500" }, { discount: "0" }]);
    const refused = await sim.a("POST", "/transactions", { body: { items, discount_id: await restricted(other) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("transaction_discount_not_eligible");
  });

  test("a flat discount in another currency than the transaction's is refused", async () => {
    const sim = createGatewaySim();
    const euros = await aDiscount(sim, { type: "flat", amount: "500", currency_code: "EUR" });
    const refused = await transactionWith(sim, euros.id, ["1000"], "USD");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: "request_error", code: "transaction_invalid_discount_currency" });
    expect((await transactionWith(sim, euros.id, ["1000"], "EUR")).body.data.details.totals.discount).toBe("500");
  });
});
