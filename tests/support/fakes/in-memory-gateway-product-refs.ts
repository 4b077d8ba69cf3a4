import type { AuditLogWriter } from "../../../application/audit/ports.ts";
import type { GatewayProductRefs, GatewayRef } from "../../../application/payments/ports.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";

/**
 * Gateway-side ids per product, gateway and environment; `put` replaces the ref of its slot and
 * writes its audit entry to `trail`.
 */
export function createInMemoryGatewayProductRefs(
  trail: AuditLogWriter = createInMemoryAuditLogWriter(),
): GatewayProductRefs {
  const refs = new Map<string, GatewayRef[]>();
  const id = (productId: string, gateway: string, environment: string) => `${productId}|${gateway}|${environment}`;
  return {
    list: async (productId, gateway, environment) => [...(refs.get(id(productId, gateway, environment)) ?? [])],
    async put(productId, gateway, environment, ref, audit) {
      const key = id(productId, gateway, environment);
      refs.set(key, [...(refs.get(key) ?? []).filter((r) => r.slot !== ref.slot), ref]);
      if (audit) await trail.record(audit);
    },
  };
}
