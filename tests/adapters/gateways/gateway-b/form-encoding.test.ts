import { describe, expect, test } from "bun:test";
import { encodeForm } from "../../../../adapters/gateways/gateway-b/form-encoding.ts";

describe("encodeForm", () => {
  test("flat scalars become key=value pairs in order", () => {
    expect(encodeForm({ mode: "payment", amount: 2900, active: false })).toBe("mode=payment&amount=2900&active=false");
  });

  test("nested objects and arrays use bracket notation with literal brackets", () => {
    const body = encodeForm({
      line_items: [
        { price: "price_1", quantity: 1 },
        { price_data: { currency: "usd", recurring: { interval: "month" } }, quantity: 2 },
      ],
      metadata: { order_id: "ord_1" },
    });
    expect(body).toBe(
      "line_items[0][price]=price_1&line_items[0][quantity]=1" +
        "&line_items[1][price_data][currency]=usd&line_items[1][price_data][recurring][interval]=month" +
        "&line_items[1][quantity]=2&metadata[order_id]=ord_1",
    );
  });

  test("undefined and null are left out at any depth", () => {
    expect(encodeForm({ a: undefined, b: null, c: { d: undefined, e: "x" }, f: [null, "y"] })).toBe("c[e]=x&f[1]=y");
  });

  test("values and keys are percent-encoded and decode back exactly", () => {
    const body = encodeForm({
      success_url: "https://shop.test/done?order=1&x=a b",
      "metadata[odd key]": "é&=",
    });
    expect(body).not.toContain(" ");
    expect([...new URLSearchParams(body)]).toEqual([
      ["success_url", "https://shop.test/done?order=1&x=a b"],
      ["metadata[odd key]", "é&="],
    ]);
  });

  test("an empty object encodes to nothing", () => {
    expect(encodeForm({})).toBe("");
  });
});
