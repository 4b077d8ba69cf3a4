import type { FulfillmentContext } from "../../application/fulfillment/ports.ts";

export const DEFAULT_INSTALL_DOMAIN = "installs.localhost";
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A customer's domain: the one supplied while the item waited, else a `domain` option given at checkout. */
export function customerDomain(context: FulfillmentContext): string | undefined {
  const given = context.customerInput?.domain ?? context.item.options.domain;
  const domain = typeof given === "string" ? given.trim().toLowerCase() : "";
  return DOMAIN.test(domain) ? domain : undefined;
}

/** `<slug>-<record id prefix>.<install domain>`, the label kept within DNS's 63 characters. */
export function assignedDomain(context: FulfillmentContext, installDomain: string): string {
  const slug = context.product.slug.slice(0, 54).replace(/-+$/, "");
  return `${slug}-${context.record.id.slice(0, 8)}.${installDomain}`;
}
