import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { GatewayUnavailable } from "../../domain/checkout/errors.ts";
import type { GatewayRoute } from "../../domain/checkout/gateway-selection.ts";
import type { GatewayEnvironment } from "../../domain/payments/gateway-event.ts";
import type { BreakerPass, GatewayBreakers } from "../payments/gateway-breaker-ports.ts";
import type { GatewaySettingsSource } from "../payments/ports.ts";

/** A gateway whose breaker let this checkout's call through. */
export interface GatewayEntry {
  readonly gateway: PaymentGatewayName;
  readonly environment: GatewayEnvironment;
  readonly pass: BreakerPass;
}

/**
 * Walks a checkout's gateways in the route's order, past those whose breakers are open. A named
 * gateway is the only one tried: the customer chose it, and hears of the others instead.
 */
export function pickGateways(
  deps: { readonly breakers: GatewayBreakers; readonly settings: Pick<GatewaySettingsSource, "activeEnvironment"> },
  route: GatewayRoute,
) {
  const candidates = route.named ? [route.payment_gateway] : [...route.usable];
  let position = 0;
  let retryAfter: number | undefined;
  const chosen = route.payment_gateway;

  /** The gateways every item enables, other than the chosen one, whose breakers are not open. */
  async function alternatives(): Promise<PaymentGatewayName[]> {
    const others = route.usable.filter((gateway) => gateway !== chosen);
    const usable = await Promise.all(
      others.map(async (gateway) => deps.breakers.usable(gateway, await deps.settings.activeEnvironment(gateway))),
    );
    return others.filter((_, index) => usable[index]);
  }

  return {
    /** The next gateway that lets a call through; undefined when none is left. */
    async next(): Promise<GatewayEntry | undefined> {
      while (position < candidates.length) {
        const gateway = candidates[position++] as PaymentGatewayName;
        const environment = await deps.settings.activeEnvironment(gateway);
        const admission = await deps.breakers.enter(gateway, environment);
        if (admission.admitted) return { gateway, environment, pass: admission };
        retryAfter = Math.min(retryAfter ?? admission.retryAfterSeconds, admission.retryAfterSeconds);
      }
      return undefined;
    },

    /** Why the checkout cannot go through its chosen gateway, with where it could go instead. */
    async unavailable(): Promise<GatewayUnavailable> {
      const environment = await deps.settings.activeEnvironment(chosen);
      const wait = retryAfter ?? (await deps.breakers.waitFor(chosen, environment));
      return new GatewayUnavailable(chosen, await alternatives(), wait);
    },
  };
}
