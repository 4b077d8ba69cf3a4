import { createHash } from "node:crypto";

export interface TenantIdentifiers {
  readonly reference: string;
  readonly tenant: string;
  readonly customer: string;
  readonly user: string;
  readonly subscription: string;
}

const PREFIXES: Record<keyof TenantIdentifiers, string> = {
  reference: "ref",
  tenant: "ten",
  customer: "cus",
  user: "usr",
  subscription: "sub",
};

function derive(prefix: string, orderId: string, orderItemId: string): string {
  const digest = createHash("sha256").update(`${prefix}:${orderId}\u0000${orderItemId}`).digest("hex");
  return `${prefix}_${digest.slice(0, 24)}`;
}

/**
 * Every identifier is a hash of the order reference alone, so a retry or a restarted simulator
 * hands out the same ones. The customer id too: each order item gets its own customer record.
 */
export function deriveIdentifiers(orderId: string, orderItemId: string): TenantIdentifiers {
  const ids = Object.entries(PREFIXES).map(([kind, prefix]) => [kind, derive(prefix, orderId, orderItemId)]);
  return Object.fromEntries(ids) as unknown as TenantIdentifiers;
}
