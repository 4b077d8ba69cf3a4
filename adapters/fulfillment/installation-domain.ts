import type { FulfillmentContext } from "../../application/fulfillment/ports.ts";
import { customerDomainFault, normalizeDomain } from "../../domain/fulfillment/customer-domain.ts";

export const DEFAULT_INSTALL_DOMAIN = "installs.localhost";

/** The domain an installation gets, or why it has none yet (the item then waits for the customer). */
export type DomainChoice = { readonly domain: string } | { readonly domain: null; readonly reason: string };

/**
 * A customer's domain: the one supplied while the item waited, else a `domain` option given at
 * checkout, by the rule every customer domain follows (a host name, none of the platform's own).
 */
export function customerDomain(context: FulfillmentContext, reserved: readonly string[]): DomainChoice {
  const given = context.customerInput?.domain ?? context.item.options.domain;
  if (given === undefined) return { domain: null, reason: "a domain is needed" };
  const domain = typeof given === "string" ? normalizeDomain(given) : "";
  const fault = customerDomainFault(domain, reserved);
  if (fault === undefined) return { domain };
  return {
    domain: null,
    reason:
      fault === "format"
        ? "the domain given at checkout is not a domain name; a domain is needed"
        : "the domain given is the platform's own; another domain is needed",
  };
}

/** `<slug>-<record id prefix>.<install domain>`, the label kept within DNS's 63 characters. */
export function assignedDomain(context: FulfillmentContext, installDomain: string): string {
  const slug = context.product.slug.slice(0, 54).replace(/-+$/, "");
  return `${slug}-${context.record.id.slice(0, 8)}.${installDomain}`;
}
