import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { OutboundUrlPolicy } from "../../application/shared/outbound-urls.ts";

export type UrlCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

function ipv4Blocked(address: string): boolean {
  const [a = 0, b = 0] = address.split(".").map(Number);
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  );
}

function ipv6Blocked(address: string): boolean {
  const ip = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped?.[1]) return ipv4Blocked(mapped[1]);
  // URL parsing writes IPv4-mapped addresses in hex: [::ffff:127.0.0.1] becomes [::ffff:7f00:1].
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return ipv4Blocked(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return ip === "::" || ip === "::1" || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || /^ff/.test(ip);
}

/** True for loopback, link-local (metadata services), private, shared and reserved addresses. */
export function isBlockedAddress(address: string): boolean {
  return isIP(address) === 6 ? ipv6Blocked(address) : ipv4Blocked(address);
}

/**
 * Whether an admin-supplied URL may be called: http(s) only, and every address its host resolves
 * to must be public, unless private addresses are allowed (the embedded demo and tests, whose
 * provider simulator is on loopback). Checked before any connection is made.
 */
export async function checkOutboundUrl(raw: string, allowPrivate: boolean): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, reason: `scheme ${url.protocol} is not allowed` };
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  if (allowPrivate) return { ok: true };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return { ok: false, reason: "the host does not resolve" };
  }
  if (addresses.length === 0) return { ok: false, reason: "the host does not resolve" };
  const blocked = addresses.find(isBlockedAddress);
  return blocked
    ? { ok: false, reason: "the host resolves to a private, loopback or link-local address" }
    : { ok: true };
}

/** The application's `OutboundUrlPolicy` over `checkOutboundUrl`. */
export function createOutboundUrlPolicy(options: { allowPrivate: boolean }): OutboundUrlPolicy {
  return {
    async refusal(url) {
      const check = await checkOutboundUrl(url, options.allowPrivate);
      return check.ok ? null : check.reason;
    },
  };
}
