import { describe, expect, test } from "bun:test";
import { decodeFormBody } from "../../../provider-sim/gateways/form-body.ts";

describe("decodeFormBody", () => {
  test("bracket notation becomes nested objects and index keys become ordered lists", () => {
    const body = new URLSearchParams([
      ["mode", "subscription"],
      ["line_items[1][quantity]", "2"],
      ["line_items[0][price_data][product_data][name]", "POS & more"],
      ["line_items[0][price_data][unit_amount]", "2900"],
      ["metadata[order_id]", "ord_1"],
      ["expand[]", "subscription"],
      ["expand[]", "invoice"],
    ]).toString();
    expect(decodeFormBody(body)).toEqual({
      mode: "subscription",
      line_items: [{ price_data: { product_data: { name: "POS & more" }, unit_amount: "2900" } }, { quantity: "2" }],
      metadata: { order_id: "ord_1" },
      expand: ["subscription", "invoice"],
    });
  });

  test("an empty body is an empty object; a repeated scalar keeps the last value", () => {
    expect(decodeFormBody("")).toEqual({});
    expect(decodeFormBody("a=1&a=2")).toEqual({ a: "2" });
  });

  test("malformed keys and a key used both as a value and as a hash are refused", () => {
    expect(decodeFormBody("a[b=1")).toBeUndefined();
    expect(decodeFormBody("[a]=1")).toBeUndefined();
    expect(decodeFormBody("a=1&a[b]=2")).toBeUndefined();
    expect(decodeFormBody("a[b]=2&a=1")).toBeUndefined();
  });
});
