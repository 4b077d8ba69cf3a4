import { parseIpAddress } from "./ip-address.ts";
import { type OutboundGuardOptions, vetOutboundUrl } from "./url-guard.ts";

/** How the marketplace calls out: every outbound call goes through one (`createGuardedFetch`). */
export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Bun's `fetch`, whose `tls.serverName` sets SNI and the name the certificate is verified against. */
export type Transport = (input: string | URL | Request, init?: BunFetchRequestInit) => Promise<Response>;

/** A call the guard would not connect: the reason names the address and why it is not public. */
export class OutboundUrlRefused extends Error {
  constructor(
    readonly reason: string,
    readonly transient: boolean,
  ) {
    super(`The address is not allowed: ${reason}.`);
    this.name = "OutboundUrlRefused";
  }
}

// Looked up at call time, so an interceptor installed later (msw in tests) still sees the call.
const bunFetch: Transport = (input, init) => fetch(input, init);

/**
 * The request sent to the checked address instead of whatever the name resolves to by the time
 * of connecting: the URL carries the IP, the Host header the original host, and for https the
 * original name goes as SNI and is what the certificate must match.
 */
async function sendPinned(request: Request, address: string, transport: Transport): Promise<Response> {
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (parseIpAddress(host)) return transport(request);
  const target = new URL(url);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  const headers = new Headers(request.headers);
  headers.set("host", url.host);
  return transport(target, {
    method: request.method,
    headers,
    ...(request.body === null ? {} : { body: await request.arrayBuffer() }),
    redirect: request.redirect,
    signal: request.signal,
    ...(url.protocol === "https:" ? { tls: { serverName: host.replace(/\.$/, "") } } : {}),
  });
}

/**
 * The connect-time guard: resolves the host once, refuses the call when any address
 * is not public, and connects to the first checked address, so a DNS answer that changes between
 * check and connection (rebinding) is never used. A refusal throws `OutboundUrlRefused` before
 * any connection. With private addresses allowed only the scheme is checked and the call goes
 * by name: there is nothing left to refuse, and test interceptors match on host names.
 */
export function createGuardedFetch(options: OutboundGuardOptions & { readonly transport?: Transport }): OutboundFetch {
  const transport = options.transport ?? bunFetch;
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const vetting = await vetOutboundUrl(new URL(request.url), options);
    if (!vetting.ok) throw new OutboundUrlRefused(vetting.reason, vetting.transient);
    const [address] = vetting.addresses;
    if (address === undefined) return transport(request);
    // The caller's time-out may have run out while the name was resolving.
    request.signal.throwIfAborted();
    return sendPinned(request, address, transport);
  };
}

/** For clients built outside `wireMarketplace` (unit tests against loopback servers). */
export const connectToAnyAddress = createGuardedFetch({ allowPrivate: true });
