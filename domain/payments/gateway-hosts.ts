import type { PaymentGatewayName } from "../catalog/product.ts";
import type { GatewayEnvironment } from "./gateway-event.ts";

/**
 * The gateways' own API hosts, as their official SDKs call them (`@paddle/paddle-node-sdk`:
 * `https://sandbox-api.paddle.com` and `https://api.paddle.com`; `stripe`: `api.stripe.com` for
 * test and live keys alike).
 */
export const OFFICIAL_GATEWAY_HOSTS: Readonly<
  Record<PaymentGatewayName, Readonly<Record<GatewayEnvironment, string>>>
> = {
  gateway_a: { sandbox: "sandbox-api.paddle.com", live: "api.paddle.com" },
  gateway_b: { sandbox: "api.stripe.com", live: "api.stripe.com" },
};

/** `https://<official host>` on the default port, with any path. */
export function isOfficialGatewayUrl(
  gateway: PaymentGatewayName,
  environment: GatewayEnvironment,
  url: string,
): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === "https:" &&
      parsed.port === "" &&
      parsed.username === "" &&
      parsed.password === "" &&
      parsed.hostname === OFFICIAL_GATEWAY_HOSTS[gateway][environment]
    );
  } catch {
    return false;
  }
}

/**
 * Whether live API keys may go to other hosts than the gateway's own: never in production, unless
 * the operator says so (`GATEWAY_ALLOW_CUSTOM_BASE_URLS=true`, for a proxy of their own).
 */
export interface GatewayHostPolicy {
  readonly liveOfficialHostsOnly: boolean;
}

/** Why `url` may not carry `gateway`'s `environment` key, or undefined when it may. */
export function gatewayHostRefusal(
  policy: GatewayHostPolicy,
  gateway: PaymentGatewayName,
  environment: GatewayEnvironment,
  url: string,
): string | undefined {
  if (!policy.liveOfficialHostsOnly || environment !== "live" || isOfficialGatewayUrl(gateway, environment, url)) {
    return undefined;
  }
  return `in production, ${gateway}'s live address must be https://${OFFICIAL_GATEWAY_HOSTS[gateway].live} (set GATEWAY_ALLOW_CUSTOM_BASE_URLS=true to allow another)`;
}
