import { PAYMENT_GATEWAYS, type PaymentGatewayName, type ProductDefinition } from "../catalog/product.ts";
import { NoCommonGateway } from "./errors.ts";

type GatewayChoice = Pick<ProductDefinition, "enabled_payment_gateways" | "default_payment_gateway">;

/** The gateway a checkout goes through, and where it may go instead when that one is down. */
export interface GatewayRoute {
  readonly payment_gateway: PaymentGatewayName;
  /** The customer asked for this gateway and got it: a failure there is answered, not routed around. */
  readonly named: boolean;
  /** Every gateway all items enable: the chosen one first, then the others in the router's order. */
  readonly usable: readonly PaymentGatewayName[];
}

/**
 * The gateway router: the requested gateway when every item enables it; otherwise the items'
 * default gateway when they agree on one that all enable; otherwise the first gateway every item
 * enables. No common gateway at all is a 422.
 */
export function routeGateway(items: readonly GatewayChoice[], requested?: PaymentGatewayName): GatewayRoute {
  const common = PAYMENT_GATEWAYS.filter((gateway) =>
    items.every((item) => item.enabled_payment_gateways.includes(gateway)),
  );
  if (common.length === 0) throw new NoCommonGateway();
  const route = (chosen: PaymentGatewayName, named: boolean): GatewayRoute => ({
    payment_gateway: chosen,
    named,
    usable: [chosen, ...common.filter((gateway) => gateway !== chosen)],
  });
  if (requested && common.includes(requested)) return route(requested, true);
  const defaults = new Set(items.map((item) => item.default_payment_gateway));
  const [shared] = defaults;
  if (defaults.size === 1 && shared && common.includes(shared)) return route(shared, false);
  return route(common[0] as PaymentGatewayName, false);
}

export function selectGateway(items: readonly GatewayChoice[], requested?: PaymentGatewayName): PaymentGatewayName {
  return routeGateway(items, requested).payment_gateway;
}
