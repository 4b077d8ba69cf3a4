import { ValidationFailed } from "../shared/errors.ts";
import { hostNameLabels } from "../shared/host-name.ts";

/** A host name (normalized, so lower case) whose last label is alphabetic: `shop.example.com`. */
function isCustomerHostName(domain: string): boolean {
  const labels = hostNameLabels(domain);
  return labels !== undefined && domain === domain.toLowerCase() && /^[a-z]{2,}$/.test(labels.at(-1) ?? "");
}

/** Domains compare without case, surrounding blanks or the root's trailing dot. */
export function normalizeDomain(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, "");
}

/** `name` is `parent` or a name under it. */
export function isWithinDomain(name: string, parent: string): boolean {
  const base = normalizeDomain(parent);
  return name === base || name.endsWith(`.${base}`);
}

export type CustomerDomainFault = "format" | "reserved";

/**
 * What is wrong with a (normalized) domain a customer names for their installation: not a host
 * name, or the platform's own (a name under a domain in `reserved`, such as the install domain
 * whose subdomains the platform hands out). Undefined when it may be used.
 */
export function customerDomainFault(domain: string, reserved: readonly string[]): CustomerDomainFault | undefined {
  if (!isCustomerHostName(domain)) return "format";
  if (reserved.some((parent) => isWithinDomain(domain, parent))) return "reserved";
  return undefined;
}

const FIELD_ERRORS = {
  format: { code: "INVALID_DOMAIN", message: "must be a domain name such as shop.example.com" },
  reserved: { code: "DOMAIN_RESERVED", message: "is the platform's own domain or a name under it" },
} as const;

/** The 422 for a domain refused by `customerDomainFault`, on the `/domain` field. */
export function customerDomainRefused(fault: CustomerDomainFault): ValidationFailed {
  return new ValidationFailed([{ path: "/domain", ...FIELD_ERRORS[fault] }]);
}
