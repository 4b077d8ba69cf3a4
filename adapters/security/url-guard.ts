import { lookup } from "node:dns/promises";
import type { OutboundUrlPolicy } from "../../application/shared/outbound-urls.ts";
import { parseIpAddress } from "./ip-address.ts";
import { nonPublicBlock } from "./special-addresses.ts";

/** Every address a host name resolves to, in the resolver's order. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface OutboundGuardOptions {
  /** The embedded demo and tests, whose provider simulator is on loopback: no address is refused. */
  readonly allowPrivate: boolean;
  readonly resolve?: HostResolver;
}

/**
 * The addresses a URL may be connected to, all checked, or why it may not be called. `transient`
 * marks a refusal that may pass later (a name that does not resolve now). With private addresses
 * allowed nothing is resolved and the list is empty: the connection goes by name.
 */
export type Vetting =
  | { readonly ok: true; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly reason: string; readonly transient: boolean };

const refuse = (reason: string, transient = false): Vetting => ({ ok: false, reason, transient });

/** RFC 6761: `localhost` and every name under it mean this machine, whatever a resolver says. */
const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

async function resolveOnce(host: string, resolve: HostResolver): Promise<readonly string[] | null> {
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 ? addresses : null;
  } catch {
    return null;
  }
}

/** http(s) only, no credentials, and (unless private addresses are allowed) only public addresses. */
export async function vetOutboundUrl(url: URL, options: OutboundGuardOptions): Promise<Vetting> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(`scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) return refuse("credentials in the URL are not allowed");
  if (options.allowPrivate) return { ok: true, addresses: [] };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isLocalhostName(host)) return refuse(`${host} always names this machine`);
  const addresses = parseIpAddress(host) ? [host] : await resolveOnce(host, options.resolve ?? systemResolver);
  if (!addresses) return refuse("the host does not resolve", true);
  for (const address of addresses) {
    const block = nonPublicBlock(address);
    if (block !== null) return refuse(`${address} is not a public address (${block})`);
  }
  return { ok: true, addresses };
}

export type UrlCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The save- and test-time check of an admin-supplied URL, for early feedback. */
export async function checkOutboundUrl(raw: string, options: OutboundGuardOptions): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  const vetting = await vetOutboundUrl(url, options);
  return vetting.ok ? { ok: true } : { ok: false, reason: vetting.reason };
}

/**
 * The application's `OutboundUrlPolicy` over `checkOutboundUrl`. It answers when a URL is saved or
 * tested; every call is checked again as it connects (guarded-fetch.ts), since DNS answers change.
 */
export function createOutboundUrlPolicy(options: OutboundGuardOptions): OutboundUrlPolicy {
  return {
    async refusal(url) {
      const check = await checkOutboundUrl(url, options);
      return check.ok ? null : check.reason;
    },
  };
}
