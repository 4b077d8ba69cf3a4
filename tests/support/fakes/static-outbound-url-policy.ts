import type { OutboundUrlPolicy } from "../../../application/shared/outbound-urls.ts";

/** Refuses URLs on the listed hosts and allows every other; remembers each URL it was asked about. */
export function createStaticOutboundUrlPolicy(
  refusedHosts: readonly string[] = [],
): OutboundUrlPolicy & { readonly asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async refusal(url) {
      asked.push(url);
      const host = new URL(url).hostname;
      return refusedHosts.includes(host) ? `${host} is not a public address` : null;
    },
  };
}
