import { describe, expect, test } from "bun:test";
import { checkoutReturnUrl } from "../../../adapters/config/checkout-return-url.ts";
import { ConfigError, loadConfig } from "../../../adapters/config/config.ts";

const returnUrlOf = (env: Record<string, string>) => loadConfig({ NODE_ENV: "test", ...env }).checkoutReturnUrl;

describe("CHECKOUT_RETURN_URL", () => {
  test("defaults to the marketplace's own order status page", () => {
    const template = returnUrlOf({ PUBLIC_BASE_URL: "https://shop.example.com" });
    expect(template).toBe("https://shop.example.com/orders/{order_id}");
    expect(checkoutReturnUrl(template, "ord-1", "success")).toBe(
      "https://shop.example.com/orders/ord-1?checkout=success",
    );
  });

  test("a storefront's template keeps its own query and gains the outcome", () => {
    const template = returnUrlOf({ CHECKOUT_RETURN_URL: "https://store.example.com/thanks?order={order_id}&lang=en" });
    expect(checkoutReturnUrl(template, "a b", "cancelled")).toBe(
      "https://store.example.com/thanks?order=a%20b&lang=en&checkout=cancelled",
    );
  });

  test.each([
    ["https://store.example.com/thanks", "must contain {order_id}"],
    ["ftp://store.example.com/{order_id}", "must use http: or https:"],
    ["not a url {order_id}", "must be a valid URL"],
  ])("%s is refused at start", (value, reason) => {
    expect(() => returnUrlOf({ CHECKOUT_RETURN_URL: value })).toThrow(ConfigError);
    expect(() => returnUrlOf({ CHECKOUT_RETURN_URL: value })).toThrow(reason);
  });
});
