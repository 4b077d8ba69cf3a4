import type { GatewayProductRefs, GatewayRef } from "../../../application/payments/ports.ts";

/** Gateway-side ids per product, gateway and environment; `put` replaces the ref of its slot. */
export function createInMemoryGatewayProductRefs(): GatewayProductRefs {
  const refs = new Map<string, GatewayRef[]>();
  const id = (productId: string, gateway: string, environment: string) => `${productId}|${gateway}|${environment}`;
  return {
    list: async (productId, gateway, environment) => [...(refs.get(id(productId, gateway, environment)) ?? [])],
    async put(productId, gateway, environment, ref) {
      const key = id(productId, gateway, environment);
      refs.set(key, [...(refs.get(key) ?? []).filter((r) => r.slot !== ref.slot), ref]);
    },
  };
}
