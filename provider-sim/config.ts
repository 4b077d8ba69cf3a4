import { randomBytes } from "node:crypto";
import { boolean, ConfigError, type Env, integer, oneOf, text, url } from "../kit/env-parsers.ts";
import type { GatewaySandboxSettings } from "./gateways/gateway-sandboxes.ts";
import { DEFAULT_PLANS, type Plan, parsePlans } from "./plans.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export interface ProviderSimConfig {
  readonly port: number;
  /** The mail sandbox's SMTP port; 0 picks a free one. */
  readonly smtpPort: number;
  readonly host: string;
  /** Names this process in `/ready` or `/health`, so a supervisor knows it hears its own child. */
  readonly instanceId: string;
  readonly token: string;
  /** True when PROVIDER_SIM_TOKEN was unset and `token` was made up at start. */
  readonly tokenGenerated: boolean;
  readonly hmacSecret: string | undefined;
  readonly controls: boolean;
  /** Base of every `workspace_url`, without a trailing slash. */
  readonly publicUrl: string;
  readonly plans: readonly Plan[];
  /** Where sandbox webhooks go: `<marketplaceUrl>/api/webhooks/<gateway>`, without a trailing slash. */
  readonly marketplaceUrl: string;
  /** Each gateway sandbox is mounted only when both its API key and webhook secret are set. */
  readonly gatewayA: GatewaySandboxSettings | undefined;
  readonly gatewayB: GatewaySandboxSettings | undefined;
  readonly logLevel: (typeof LOG_LEVELS)[number];
}

function plans(env: Env): readonly Plan[] {
  const raw = text(env, "PROVIDER_SIM_PLANS");
  if (raw === undefined) return DEFAULT_PLANS;
  const parsed = parsePlans(raw);
  if (!parsed) {
    throw new ConfigError(
      "PROVIDER_SIM_PLANS",
      "must be a non-empty JSON array of {id, name, billing_intervals} with unique ids",
      undefined,
    );
  }
  return parsed;
}

function sandbox(env: Env, prefix: "GATEWAY_A" | "GATEWAY_B"): GatewaySandboxSettings | undefined {
  const apiKey = secretText(env, `${prefix}_SANDBOX_API_KEY`);
  const webhookSecret = secretText(env, `${prefix}_SANDBOX_WEBHOOK_SECRET`);
  return apiKey !== undefined && webhookSecret !== undefined ? { apiKey, webhookSecret } : undefined;
}

/** A credential: one token of printable ASCII, never echoed in the error. */
function secretText(env: Env, name: string): string | undefined {
  const value = text(env, name);
  if (value !== undefined && !/^[\x21-\x7e]{1,500}$/.test(value)) {
    throw new ConfigError(name, "must be 1 to 500 printable ASCII characters without spaces", undefined);
  }
  return value;
}

const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, "");

/** Reads and checks every variable up front; the first invalid one throws a ConfigError naming it. */
export function loadProviderSimConfig(
  env: Env,
  generateToken: () => string = () => randomBytes(24).toString("base64url"),
): ProviderSimConfig {
  const port = integer(env, "PROVIDER_SIM_PORT", 4010, 0, 65535);
  const smtpPort = integer(env, "PROVIDER_SIM_SMTP_PORT", 1025, 0, 65535);
  if (smtpPort !== 0 && smtpPort === port) {
    throw new ConfigError("PROVIDER_SIM_SMTP_PORT", "must differ from PROVIDER_SIM_PORT", String(smtpPort));
  }
  const token = text(env, "PROVIDER_SIM_TOKEN");
  return {
    port,
    smtpPort,
    host: text(env, "HOST") ?? "0.0.0.0",
    instanceId: text(env, "INSTANCE_ID") ?? crypto.randomUUID(),
    token: token ?? generateToken(),
    tokenGenerated: token === undefined,
    hmacSecret: text(env, "PROVIDER_SIM_HMAC_SECRET"),
    controls: boolean(env, "PROVIDER_SIM_CONTROL", false),
    publicUrl: withoutTrailingSlash(
      url(env, "PROVIDER_SIM_PUBLIC_URL", ["http:", "https:"]) ?? `http://localhost:${port}`,
    ),
    plans: plans(env),
    marketplaceUrl: withoutTrailingSlash(
      url(env, "PROVIDER_SIM_MARKETPLACE_URL", ["http:", "https:"]) ?? "http://127.0.0.1:3000",
    ),
    gatewayA: sandbox(env, "GATEWAY_A"),
    gatewayB: sandbox(env, "GATEWAY_B"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
  };
}
