import { describe, expect, test } from "bun:test";
import { http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import type { RemotePrice } from "../../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { aPrice, BASE, failure, noPrices, ok, paddleError, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });

describe("getPrice", () => {
  test("reads the amount, currency, interval, variant and status", async () => {
    server.use(
      http.get(`${BASE}/prices/pri_01`, () => ok(aPrice({ unit_price: { amount: "2900", currency_code: "eur" } }))),
      http.get(`${BASE}/prices/pri_02`, () =>
        ok(aPrice({ id: "pri_02", billing_cycle: null, status: "archived", custom_data: { variant: "lifetime" } })),
      ),
      http.get(`${BASE}/prices/pri_03`, () =>
        ok(aPrice({ id: "pri_03", billing_cycle: { interval: "week", frequency: 1 } })),
      ),
    );
    expect(await gateway.getPrice("pri_01")).toEqual({
      id: "pri_01",
      product_id: "pro_01",
      amount: 2900,
      currency: "EUR",
      billing_interval: "monthly",
      variant: "monthly",
      active: true,
      tax_behavior: null,
    });
    expect(await gateway.getPrice("pri_02")).toMatchObject({ billing_interval: null, variant: null, active: false });
    expect(await gateway.getPrice("pri_03")).toMatchObject({ billing_interval: null });
  });

  test("404 is undefined; other refusals are thrown", async () => {
    server.use(
      http.get(`${BASE}/prices/pri_gone`, () => paddleError(404, "not_found")),
      http.get(`${BASE}/prices/pri_locked`, () => paddleError(403, "forbidden")),
    );
    expect(await gateway.getPrice("pri_gone")).toBeUndefined();
    expect(await failure(gateway.getPrice("pri_locked"))).toBeInstanceOf(UpstreamRejected);
  });
});

describe("price writes", () => {
  test("createPrice posts a recurring price with a trial, and a one-time price without", async () => {
    const bodies: unknown[] = [];
    server.use(
      noPrices(),
      http.post(`${BASE}/prices`, async ({ request }) => {
        bodies.push(await request.json());
        return ok(aPrice({ id: "pri_new" }), {}, 201);
      }),
    );
    const common = { product_id: "pro_01", marketplace_product_id: "mp_1", currency: "usd" } as const;
    const created = await gateway.createPrice({
      ...common,
      variant: "yearly",
      amount: 29000,
      billing_interval: "yearly",
      trial_days: 30,
      tax_behavior: "exclusive",
    });
    await gateway.createPrice({
      ...common,
      variant: "regular",
      amount: 4900,
      billing_interval: null,
      trial_days: null,
      tax_behavior: "inclusive",
    });
    expect(created.id).toBe("pri_new");
    expect(bodies).toEqual([
      {
        product_id: "pro_01",
        description: "yearly",
        unit_price: { amount: "29000", currency_code: "USD" },
        tax_mode: "external",
        billing_cycle: { interval: "year", frequency: 1 },
        trial_period: { interval: "day", frequency: 30 },
        custom_data: { marketplace_product_id: "mp_1", variant: "yearly" },
      },
      {
        product_id: "pro_01",
        description: "regular",
        unit_price: { amount: "4900", currency_code: "USD" },
        tax_mode: "internal",
        billing_cycle: null,
        trial_period: null,
        custom_data: { marketplace_product_id: "mp_1", variant: "regular" },
      },
    ]);
  });

  test("updatePrice patches the unit price and the tax mode and returns the updated price", async () => {
    let body: unknown;
    server.use(
      http.patch(`${BASE}/prices/pri_01`, async ({ request }) => {
        body = await request.json();
        return ok(aPrice({ unit_price: { amount: "3900", currency_code: "USD" }, tax_mode: "external" }));
      }),
    );
    const before: RemotePrice = {
      id: "pri_01",
      product_id: "pro_01",
      amount: 2900,
      currency: "USD",
      billing_interval: "monthly",
      variant: "monthly",
      active: true,
      tax_behavior: null,
    };
    const terms = { amount: 3900, currency: "usd", tax_behavior: "exclusive" } as const;
    expect(await gateway.updatePrice(before, terms)).toEqual({ ...before, amount: 3900, tax_behavior: "exclusive" });
    expect(body).toEqual({ unit_price: { amount: "3900", currency_code: "USD" }, tax_mode: "external" });
  });
});

describe("a price made before its answer was lost", () => {
  test("is found among the product's active prices on the same terms, not made again", async () => {
    const posted: unknown[] = [];
    server.use(
      http.get(`${BASE}/prices`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        expect([query.get("product_id"), query.get("status")]).toEqual(["pro_01", "active"]);
        return ok([
          aPrice({
            id: "pri_other_amount",
            tax_mode: "external",
            unit_price: { amount: "3900", currency_code: "USD" },
          }),
          aPrice({ id: "pri_made", tax_mode: "external" }),
        ]);
      }),
      http.post(`${BASE}/prices`, async ({ request }) => {
        posted.push(await request.json());
        return ok(aPrice({ id: "pri_second" }), {}, 201);
      }),
    );
    const made = await gateway.createPrice({
      product_id: "pro_01",
      marketplace_product_id: "mp_1",
      variant: "monthly",
      amount: 2900,
      currency: "usd",
      billing_interval: "monthly",
      trial_days: null,
      tax_behavior: "exclusive",
    });
    expect(made.id).toBe("pri_made");
    expect(posted).toEqual([]);
  });
});
