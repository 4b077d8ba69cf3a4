import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { type CheckoutItemInput, type CheckoutTotals, calculateCheckout } from "../../domain/checkout/checkout.ts";
import { selectGateway } from "../../domain/checkout/gateway-selection.ts";
import type { PricingMappingRepository, ProductRepository } from "../catalog/ports.ts";

export interface CheckoutRequest {
  readonly items: readonly CheckoutItemInput[];
  readonly payment_gateway?: PaymentGatewayName;
}

export interface CalculatedCheckout extends CheckoutTotals {
  readonly payment_gateway: PaymentGatewayName;
}

export interface CalculateCheckoutDeps {
  readonly products: ProductRepository;
  readonly mappings?: PricingMappingRepository;
  readonly currency: string;
}

/** Prices a checkout and picks its gateway; nothing is stored. */
export function makeCalculateCheckout(deps: CalculateCheckoutDeps) {
  return async function calculate(request: CheckoutRequest): Promise<CalculatedCheckout> {
    const catalog = await deps.products.findWithMappings([...new Set(request.items.map((i) => i.product_id))]);
    const totals = calculateCheckout(request.items, catalog, deps.currency);
    const products = totals.items.map((item) => catalog.get(item.product_id)?.product).filter((p) => p !== undefined);
    return { ...totals, payment_gateway: selectGateway(products, request.payment_gateway) };
  };
}
