import { describe, expect, test } from "bun:test";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import { NoCommonGateway } from "../../../domain/checkout/errors.ts";
import { selectGateway } from "../../../domain/checkout/gateway-selection.ts";

const item = (enabled: PaymentGatewayName[], fallback: PaymentGatewayName = enabled[0] ?? "gateway_a") => ({
  enabled_payment_gateways: enabled,
  default_payment_gateway: fallback,
});

describe("gateway router", () => {
  test("rule 1: the requested gateway, when every item enables it", () => {
    expect(
      selectGateway([item(["gateway_a", "gateway_b"], "gateway_a"), item(["gateway_b", "gateway_a"])], "gateway_b"),
    ).toBe("gateway_b");
  });

  test("rule 2: otherwise the items' default gateway, when they agree on a common one", () => {
    const items = [item(["gateway_a", "gateway_b"], "gateway_b"), item(["gateway_a", "gateway_b"], "gateway_b")];
    expect(selectGateway(items)).toBe("gateway_b");
    expect(
      selectGateway([item(["gateway_b"], "gateway_b"), item(["gateway_a", "gateway_b"], "gateway_b")], "gateway_a"),
    ).toBe("gateway_b");
  });

  test("rule 3: otherwise the first gateway every item enables", () => {
    const items = [item(["gateway_a", "gateway_b"], "gateway_a"), item(["gateway_a", "gateway_b"], "gateway_b")];
    expect(selectGateway(items)).toBe("gateway_a");
    expect(selectGateway([item(["gateway_b"], "gateway_b"), item(["gateway_a", "gateway_b"], "gateway_a")])).toBe(
      "gateway_b",
    );
  });

  test("no gateway common to all items is a 422 naming the items", () => {
    const attempt = () => selectGateway([item(["gateway_a"]), item(["gateway_b"])], "gateway_a");
    expect(attempt).toThrow(NoCommonGateway);
    try {
      attempt();
    } catch (error) {
      expect((error as NoCommonGateway).category).toBe("invalid");
      expect((error as NoCommonGateway).errors?.[0]).toMatchObject({ path: "/items", code: "NO_COMMON_GATEWAY" });
    }
  });
});
