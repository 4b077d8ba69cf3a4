import type { GatewayRuntimeSettings, GatewaySettingsSource } from "../../application/payments/ports.ts";
import { type OutboundFetch, OutboundUrlRefused } from "../security/guarded-fetch.ts";

const guards = new WeakMap<GatewayRuntimeSettings, OutboundFetch>();

/**
 * The gateway clients take nothing but a settings source and resolve it at every call, so the
 * marketplace's connect-time guard travels with the settings they resolve. Each resolve gives a
 * fresh object, so two marketplaces in one process never share a guard.
 */
export function withOutboundGuard(source: GatewaySettingsSource, outbound: OutboundFetch): GatewaySettingsSource {
  return {
    activeEnvironment: (gateway) => source.activeEnvironment(gateway),
    taxBehavior: (gateway) => source.taxBehavior(gateway),
    webhookSecrets: (gateway) => source.webhookSecrets(gateway),
    async resolve(gateway) {
      const settings = { ...(await source.resolve(gateway)) };
      guards.set(settings, outbound);
      return settings;
    },
  };
}

/** Settings that lost their guard (copied on the way, say) connect nowhere rather than anywhere. */
const unguarded: OutboundFetch = async () => {
  throw new OutboundUrlRefused("the gateway settings carry no outbound guard", false);
};

/** The guard the settings were resolved with. */
export const outboundFor = (settings: GatewayRuntimeSettings): OutboundFetch => guards.get(settings) ?? unguarded;
