import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { type CheckoutItemInput, calculateCheckout } from "../../domain/checkout/checkout.ts";
import { type GatewayRoute, routeGateway } from "../../domain/checkout/gateway-selection.ts";
import { applyDiscount, type DiscountedTotals, undiscounted } from "../../domain/discounts/apply.ts";
import type { PricingMappingRepository, ProductRepository } from "../catalog/ports.ts";
import type { DiscountCodes } from "../discounts/ports.ts";
import type { Clock } from "../shared/clock-and-log.ts";

export interface CheckoutRequest {
  readonly items: readonly CheckoutItemInput[];
  readonly payment_gateway?: PaymentGatewayName;
  /** A discount code, any case. */
  readonly discount_code?: string;
}

export interface CalculatedCheckout extends DiscountedTotals {
  readonly payment_gateway: PaymentGatewayName;
  /** Where the checkout may go should its gateway be down; without it, nowhere else. */
  readonly route?: GatewayRoute;
}

export interface CalculateCheckoutDeps {
  readonly products: ProductRepository;
  readonly mappings?: PricingMappingRepository;
  readonly currency: string;
  readonly discounts: DiscountCodes;
  readonly clock: Clock;
}

/**
 * Prices a checkout, applies its discount code and picks its gateway; nothing is stored. A quote
 * (`buyer` unknown) does not yet hold a code's first-purchase condition against anyone.
 */
export function makeCalculateCheckout(deps: CalculateCheckoutDeps) {
  return async function calculate(
    request: CheckoutRequest,
    buyer?: { readonly customerId: string },
  ): Promise<CalculatedCheckout> {
    const catalog = await deps.products.findWithMappings([...new Set(request.items.map((i) => i.product_id))]);
    const totals = calculateCheckout(request.items, catalog, deps.currency);
    const products = totals.items.map((item) => catalog.get(item.product_id)?.product).filter((p) => p !== undefined);
    const route = routeGateway(products, request.payment_gateway);
    const { payment_gateway } = route;
    if (request.discount_code === undefined) return { ...undiscounted(totals), payment_gateway, route };
    const found = await deps.discounts.findByCode(request.discount_code);
    const hasPaidOrder = found && buyer ? await deps.discounts.hasPaidOrder(buyer.customerId) : null;
    const discounted = applyDiscount(totals, found?.discount, {
      now: deps.clock(),
      hasPaidOrder,
      holders: found?.holders ?? 0,
    });
    return { ...discounted, payment_gateway, route };
  };
}
