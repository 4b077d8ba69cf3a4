import { UpstreamBadResponse } from "../../application/shared/errors.ts";

/**
 * A link from a gateway's answer that a customer's browser is sent to (a portal, an invoice, a
 * receipt): an http(s) address, never anything a browser would run; else the gateway answered badly.
 */
export function browserLink(value: unknown, what: string): string {
  if (typeof value === "string" && /^https?:\/\/[^\s]+$/i.test(value)) return value;
  throw new UpstreamBadResponse("gateway", `${what} is not a web address`);
}
