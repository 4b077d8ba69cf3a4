import { describe, expect, test } from "bun:test";
import { configOf } from "../../../domain/catalog/drivers.ts";
import { isValidPrice, MAX_PRICE_MINOR } from "../../../domain/catalog/price-range.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

const saasConfig = {
  base_url: "https://provider.example",
  onboard_endpoint: "/api/marketplace/onboard",
  status_endpoint: "/api/marketplace/status",
  auth_mode: "hmac",
  credentials_ref: "provider_key",
  timeout_seconds: 30,
  management: { enabled: true, base_url: "https://provider.example" },
};

describe("configOf", () => {
  test("gives the configuration of a product of the driver asked for, typed by that driver's spec", () => {
    const config = configOf(
      { fulfillment_driver: "multitenant_saas", fulfillment_config: saasConfig },
      "multitenant_saas",
    );
    expect(config?.auth_mode).toBe("hmac");
    expect(config?.management?.enabled).toBe(true);
  });

  test("gives nothing for a product of another driver", () => {
    const product = { fulfillment_driver: "manual_fulfillment", fulfillment_config: saasConfig };
    expect(configOf(product, "multitenant_saas")).toBeUndefined();
  });

  test("refuses a configuration the driver's spec does not accept, with the errors a save would give", () => {
    const stale = { ...saasConfig, auth_mode: "basic", timeout_seconds: 0 };
    try {
      configOf({ fulfillment_driver: "multitenant_saas", fulfillment_config: stale }, "multitenant_saas");
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors?.map((e) => [e.path, e.code])).toEqual([
        ["/fulfillment_config/auth_mode", "INVALID_ENUM"],
        ["/fulfillment_config/timeout_seconds", "OUT_OF_RANGE"],
      ]);
    }
  });
});

test.each<[number, boolean]>([
  [0, true],
  [1999, true],
  [MAX_PRICE_MINOR, true],
  [MAX_PRICE_MINOR + 1, false],
  [-1, false],
  [9.99, false],
  [Number.NaN, false],
])("isValidPrice(%p) is %p", (price, ok) => {
  expect(isValidPrice(price)).toBe(ok);
});
