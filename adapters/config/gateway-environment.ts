import { type Env, integer, oneOf, url } from "../../kit/env-parsers.ts";

/** What the environment says of one gateway: which environment it runs in, its hosts and defaults. */
export interface GatewayDefaults {
  readonly environment: "sandbox" | "live";
  readonly sandboxBaseUrl: string;
  readonly liveBaseUrl: string;
  readonly webhookToleranceSeconds: number;
  /** How prices created at the gateway treat tax until an admin changes it. */
  readonly taxBehavior: "exclusive" | "inclusive";
}

/** `<prefix>_ENVIRONMENT`, `_SANDBOX_BASE_URL`, `_LIVE_BASE_URL`, `_WEBHOOK_TOLERANCE_S` and `_TAX_BEHAVIOR`. */
export function gatewayDefaults(env: Env, prefix: string, sandbox: string, live: string): GatewayDefaults {
  return {
    environment: oneOf(env, `${prefix}_ENVIRONMENT`, ["sandbox", "live"], "sandbox"),
    sandboxBaseUrl: url(env, `${prefix}_SANDBOX_BASE_URL`, ["http:", "https:"]) ?? sandbox,
    liveBaseUrl: url(env, `${prefix}_LIVE_BASE_URL`, ["http:", "https:"]) ?? live,
    webhookToleranceSeconds: integer(env, `${prefix}_WEBHOOK_TOLERANCE_S`, 300, 1, 3600),
    taxBehavior: oneOf(env, `${prefix}_TAX_BEHAVIOR`, ["exclusive", "inclusive"], "exclusive"),
  };
}
