import { afterEach, describe, expect, test } from "bun:test";
import { aSession, aTransaction } from "./flows.ts";
import { createGatewaySim, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

/** The hosted page refuses to take money: no Pay button, and both ways of paying answer 410. */
async function expectUnpayable(sim: ReturnType<typeof createGatewaySim>, path: string) {
  const page = await sim.plain("GET", path);
  expect(page.status).toBe(200);
  expect(page.body).toContain('<p id="status">This checkout has expired.</p>');
  expect(page.body).not.toContain("<button");
  expect((await sim.plain("POST", path)).status).toBe(410);
  const scripted = await sim.plain("POST", `${path}/pay`);
  expect(scripted.status).toBe(410);
  expect(scripted.body).toMatchObject({ code: "CHECKOUT_EXPIRED" });
}

describe("gateway_b: POST /v1/checkout/sessions/{id}/expire", () => {
  test("expires an open session, which can then no longer be paid and sends nothing", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim);
    const expired = await sim.b("POST", `/checkout/sessions/${session.id}/expire`);
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ id: session.id, object: "checkout.session", status: "expired" });
    expect((await sim.b("GET", `/checkout/sessions/${session.id}`)).body.status).toBe("expired");
    await expectUnpayable(sim, `/checkout/gateway_b/${session.id}`);
    expect(await marketplace.settle()).toEqual([]);
  });

  test("only an open session can be expired: an expired or complete one is a 400", async () => {
    const sim = simWithMarketplace();
    const session = await aSession(sim);
    await sim.b("POST", `/checkout/sessions/${session.id}/expire`);
    const again = await sim.b("POST", `/checkout/sessions/${session.id}/expire`);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ type: "invalid_request_error", message: expect.stringContaining("open") });

    const paid = await aSession(sim);
    expect((await sim.plain("POST", `/checkout/gateway_b/${paid.id}/pay`)).status).toBe(200);
    const refused = await sim.b("POST", `/checkout/sessions/${paid.id}/expire`);
    expect(refused.status).toBe(400);
    expect((await sim.b("GET", `/checkout/sessions/${paid.id}`)).body.status).toBe("complete");
  });

  test("an unknown session is a 404 and the key is required", async () => {
    const sim = createGatewaySim();
    expect((await sim.b("POST", "/checkout/sessions/cs_unknown/expire")).status).toBe(404);
    const session = await aSession(sim);
    expect((await sim.b("POST", `/checkout/sessions/${session.id}/expire`, undefined, "")).status).toBe(401);
  });
});

describe("gateway_a: PATCH /transactions/{id} with status canceled", () => {
  test("cancels a ready transaction, which can then no longer be paid", async () => {
    const sim = simWithMarketplace();
    const transaction = await aTransaction(sim);
    const canceled = await sim.a("PATCH", `/transactions/${transaction.id}`, { body: { status: "canceled" } });
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ id: transaction.id, status: "canceled" });
    expect((await sim.a("GET", `/transactions/${transaction.id}`)).body.data.status).toBe("canceled");
    await expectUnpayable(sim, `/checkout/gateway_a/${transaction.id}`);
    expect(await marketplace.settle()).toEqual([]);
  });

  test("a completed or canceled transaction is immutable: 400 transaction_immutable", async () => {
    const sim = simWithMarketplace();
    const transaction = await aTransaction(sim);
    await sim.a("PATCH", `/transactions/${transaction.id}`, { body: { status: "canceled" } });
    const again = await sim.a("PATCH", `/transactions/${transaction.id}`, { body: { status: "canceled" } });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ type: "request_error", code: "transaction_immutable" });

    const paid = await aTransaction(sim);
    expect((await sim.plain("POST", `/checkout/gateway_a/${paid.id}/pay`)).status).toBe(200);
    const refused = await sim.a("PATCH", `/transactions/${paid.id}`, { body: { status: "canceled" } });
    expect(refused.body.error).toMatchObject({ code: "transaction_immutable" });
    expect((await sim.a("GET", `/transactions/${paid.id}`)).body.data.status).toBe("completed");
  });

  test("a cancellation with other changes is refused, and so is any other change", async () => {
    const sim = createGatewaySim();
    const transaction = await aTransaction(sim);
    const mixed = await sim.a("PATCH", `/transactions/${transaction.id}`, {
      body: { status: "canceled", custom_data: { order_id: "x" } },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.code).toBe("transaction_cannot_be_modified_and_canceled");
    const other = await sim.a("PATCH", `/transactions/${transaction.id}`, { body: { status: "billed" } });
    expect(other.status).toBe(422);
    expect((await sim.a("GET", `/transactions/${transaction.id}`)).body.data.status).toBe("ready");
    expect((await sim.a("PATCH", "/transactions/txn_unknown", { body: { status: "canceled" } })).status).toBe(404);
  });
});
