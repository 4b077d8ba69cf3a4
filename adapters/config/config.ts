import type { RetrySchedule } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import { type GatewayHostPolicy, gatewayHostRefusal } from "../../domain/payments/gateway-hosts.ts";
import { boolean, ConfigError, currency, type Env, integer, oneOf, text, url } from "../../kit/env-parsers.ts";
import { checkoutReturnUrlTemplate } from "./checkout-return-url.ts";
import { emailAddress, senderMailbox } from "./email-settings.ts";
import { type GatewayDefaults, gatewayDefaults } from "./gateway-environment.ts";
import { licenseKey } from "./license-key.ts";
import { type MetricsSettings, metricsSettings } from "./metrics-settings.ts";
import { type PlanChangeSetting, planChanges } from "./plan-changes.ts";
import { type RateLimits, rateLimits } from "./rate-limits.ts";
import { retrySchedule } from "./retry-schedule.ts";

export { ConfigError } from "../../kit/env-parsers.ts";
export type { GatewayDefaults };

export type NodeEnv = "development" | "production" | "test";
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Config {
  readonly nodeEnv: NodeEnv;
  readonly host: string;
  /** Names this process in `/ready` or `/health`, so a supervisor knows it hears its own child. */
  readonly instanceId: string;
  readonly port: number;
  readonly providerSimPort: number;
  /** Unset means the embedded PostgreSQL (PGlite) under `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolMax: number;
  readonly dataDir: string;
  /** Unset outside production: main generates one and keeps it under `dataDir`. */
  readonly jwtSecret: string | undefined;
  readonly jwtIssuer: string;
  /** Key material for stored secrets; generated under `dataDir` outside production when unset. */
  readonly secretsKey: string | undefined;
  readonly jwtTtlSeconds: number;
  /** How long emailed links work: PASSWORD_RESET_TTL_SECONDS, EMAIL_LINK_TTL_SECONDS, GUEST_CLAIM_TTL_SECONDS. */
  readonly passwordResetTtlSeconds: number;
  readonly emailLinkTtlSeconds: number;
  readonly guestClaimTtlSeconds: number;
  /** REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY: deliveries wait until the customer's address is verified. */
  readonly requireVerifiedEmailForDelivery: boolean;
  readonly admin: { readonly email: string; readonly password: string } | undefined;
  readonly logLevel: LogLevel;
  readonly currency: string;
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  /** Where customers and gateways reach this marketplace (checkout return URLs). */
  readonly publicBaseUrl: string;
  /** Where checkout returns the customer, with `{order_id}`: our order status page unless a storefront's. */
  readonly checkoutReturnUrl: string;
  readonly gateways: { readonly gateway_a: GatewayDefaults; readonly gateway_b: GatewayDefaults };
  readonly gatewayTimeoutSeconds: number;
  /** The gateways' circuit breakers: failures in a row that open one, seconds it stays open. */
  readonly gatewayBreaker: { readonly failures: number; readonly cooldownSeconds: number };
  /** In production, live API keys go only to the gateways' own hosts unless `GATEWAY_ALLOW_CUSTOM_BASE_URLS=true`. */
  readonly gatewayHosts: GatewayHostPolicy;
  readonly jobs: {
    readonly enabled: boolean;
    readonly maxAttempts: number;
    readonly concurrency: number;
    readonly leaseMs: number;
    readonly backoffBaseMs: number;
    readonly backoffMaxMs: number;
    readonly pollIntervalMs: number;
  };
  /** Runs the minute tick (one instance at a time holds it). */
  readonly tickEnabled: boolean;
  readonly subscriptionGraceHours: number;
  /** How long a license key replaced by an upgrade keeps validating. */
  readonly licenseUpgradeGraceHours: number;
  /** When a subscriber's plan change takes effect at each gateway, to a longer interval and to a shorter one. */
  readonly planChanges: Readonly<Record<"gateway_a" | "gateway_b", PlanChangeSetting>>;
  /** How long an order waits for its payment before the minute tick expires it and its checkout. */
  readonly checkoutExpiryMinutes: number;
  /** How long an unpaid order holds a redemption of a discount code with `max_redemptions`. */
  readonly discountHoldMinutes: number;
  /** PKCS#8 PEM of the Ed25519 license signing key; generated under `dataDir` outside production when unset. */
  readonly licenseSigningKey: string | undefined;
  /** Per-client limits of sign-in, public license checks, webhooks and checkout. */
  readonly rateLimits: RateLimits;

  /** Trust the first X-Forwarded-For hop as the client (only behind a proxy that sets it). */
  readonly trustProxy: boolean;
  /** Let admin-supplied URLs point at loopback, private and link-local hosts (demo and tests only). */
  readonly allowPrivateProviderUrls: boolean;
  /** Let outgoing webhook endpoints point at loopback, private and link-local hosts (development only). */
  readonly allowPrivateWebhookUrls: boolean;
  /** How long a signed download link stays valid. */
  readonly downloadLinkTtlSeconds: number;
  /** How long the download link in a license's ready email stays valid. */
  readonly emailDownloadLinkTtlHours: number;
  /** How long the artifact's server may take to start answering, and to send the next bytes of a download. */
  readonly downloadSourceTimeoutSeconds: number;
  /** Parent domain of the subdomains given to dedicated installations. */
  readonly installDomain: string;
  /** Seed the demo catalog when the products table is empty. */
  readonly seedDemo: boolean;
  /** Where the seeded point-of-sale product points: the bundled simulator by default. */
  readonly demoProviderBaseUrl: string;
  /** Email: unset `smtpUrl` keeps notifications in the log and the customer's list only. */
  readonly mail: {
    readonly smtpUrl: string | undefined;
    readonly from: string | undefined;
    /** Where operations alerts go. */
    readonly opsEmail: string | undefined;
  };
  /** Who may read `/metrics`, and the loopback listener that serves it when no token is set. */
  readonly metrics: MetricsSettings;
  /**
   * Outgoing webhooks: each attempt's time-out, the waits between attempts (their count sets the
   * attempts), and how many events a replay sends an endpoint per second.
   */
  readonly outgoingWebhooks: {
    readonly timeoutSeconds: number;
    readonly retrySchedule: RetrySchedule;
    readonly replayPerSecond: number;
  };
}

const MIN_JWT_SECRET_LENGTH = 32;

/** Parses and validates every variable once; throws ConfigError naming the first bad one. */
export function loadConfig(env: Env): Config {
  const nodeEnv = oneOf<NodeEnv>(env, "NODE_ENV", ["development", "production", "test"], "development");
  const jwtSecret = text(env, "JWT_SECRET");
  if (jwtSecret === undefined && nodeEnv === "production") {
    throw new ConfigError("JWT_SECRET", "is required when NODE_ENV=production", undefined);
  }
  if (jwtSecret !== undefined && jwtSecret.length < MIN_JWT_SECRET_LENGTH) {
    throw new ConfigError("JWT_SECRET", `must be at least ${MIN_JWT_SECRET_LENGTH} characters long`, undefined);
  }
  const secretsKey = text(env, "SECRETS_KEY");
  if (secretsKey === undefined && nodeEnv === "production") {
    throw new ConfigError("SECRETS_KEY", "is required when NODE_ENV=production", undefined);
  }
  if (secretsKey !== undefined && secretsKey.length < 32) {
    throw new ConfigError("SECRETS_KEY", "must be at least 32 characters long", undefined);
  }
  const adminEmail = emailAddress(env, "ADMIN_EMAIL");
  const adminPassword = text(env, "ADMIN_PASSWORD");
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    const missing = adminEmail === undefined ? "ADMIN_EMAIL" : "ADMIN_PASSWORD";
    throw new ConfigError(missing, "must be set together with the other of ADMIN_EMAIL and ADMIN_PASSWORD", undefined);
  }
  const mail = {
    smtpUrl: url(env, "SMTP_URL", ["smtp:", "smtps:"]),
    from: senderMailbox(env, "MAIL_FROM"),
    opsEmail: emailAddress(env, "OPS_EMAIL"),
  };
  if (mail.smtpUrl && !mail.from) throw new ConfigError("MAIL_FROM", "is required when SMTP_URL is set", undefined);
  if (mail.opsEmail && !mail.smtpUrl) throw new ConfigError("OPS_EMAIL", "needs SMTP_URL to send through", undefined);
  const publicBaseUrl =
    url(env, "PUBLIC_BASE_URL", ["http:", "https:"]) ?? `http://localhost:${integer(env, "PORT", 3000, 0, 65535)}`;
  const gateways = {
    gateway_a: gatewayDefaults(env, "GATEWAY_A", "https://sandbox-api.paddle.com", "https://api.paddle.com"),
    gateway_b: gatewayDefaults(env, "GATEWAY_B", "https://api.stripe.com", "https://api.stripe.com"),
  };
  const customGatewayHosts = boolean(env, "GATEWAY_ALLOW_CUSTOM_BASE_URLS", false);
  const gatewayHosts = { liveOfficialHostsOnly: nodeEnv === "production" && !customGatewayHosts };
  for (const gateway of ["gateway_a", "gateway_b"] as const) {
    const refusal = gatewayHostRefusal(gatewayHosts, gateway, "live", gateways[gateway].liveBaseUrl);
    if (refusal)
      throw new ConfigError(`${gateway.toUpperCase()}_LIVE_BASE_URL`, refusal, gateways[gateway].liveBaseUrl);
  }
  return {
    nodeEnv,
    host: text(env, "HOST") ?? "0.0.0.0",
    instanceId: text(env, "INSTANCE_ID") ?? crypto.randomUUID(),
    port: integer(env, "PORT", 3000, 0, 65535),
    providerSimPort: integer(env, "PROVIDER_SIM_PORT", 4010, 0, 65535),
    databaseUrl: url(env, "DATABASE_URL", ["postgres:", "postgresql:"]),
    databasePoolMax: integer(env, "DATABASE_POOL_MAX", 10, 1, 200),
    dataDir: text(env, "DATA_DIR") ?? ".data",
    jwtSecret,
    jwtIssuer: text(env, "JWT_ISSUER") ?? "marketplace",
    secretsKey,
    jwtTtlSeconds: integer(env, "JWT_TTL_SECONDS", 3600, 60, 30 * 24 * 3600),
    passwordResetTtlSeconds: integer(env, "PASSWORD_RESET_TTL_SECONDS", 3600, 60, 24 * 3600),
    emailLinkTtlSeconds: integer(env, "EMAIL_LINK_TTL_SECONDS", 24 * 3600, 60, 7 * 24 * 3600),
    guestClaimTtlSeconds: integer(env, "GUEST_CLAIM_TTL_SECONDS", 30 * 24 * 3600, 3600, 90 * 24 * 3600),
    requireVerifiedEmailForDelivery: boolean(env, "REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY", false),
    admin: adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    logLevel: oneOf<LogLevel>(
      env,
      "LOG_LEVEL",
      ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
      nodeEnv === "test" ? "silent" : "info",
    ),
    currency: currency(env, "MARKETPLACE_CURRENCY", "USD"),
    bodyLimitBytes: integer(env, "BODY_LIMIT_BYTES", 1024 * 1024, 1024, 64 * 1024 * 1024),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 120_000),
    publicBaseUrl,
    checkoutReturnUrl: checkoutReturnUrlTemplate(env, publicBaseUrl),
    gateways,
    gatewayTimeoutSeconds: integer(env, "GATEWAY_TIMEOUT_SECONDS", 15, 1, 120),
    gatewayBreaker: {
      failures: integer(env, "GATEWAY_BREAKER_FAILURES", 5, 1, 1000),
      cooldownSeconds: integer(env, "GATEWAY_BREAKER_COOLDOWN_SECONDS", 30, 1, 3600),
    },
    gatewayHosts,
    jobs: {
      enabled: boolean(env, "JOBS_ENABLED", true),
      maxAttempts: integer(env, "JOB_MAX_ATTEMPTS", 8, 1, 100),
      concurrency: integer(env, "JOB_CONCURRENCY", 4, 1, 64),
      leaseMs: integer(env, "JOB_LEASE_SECONDS", 30, 2, 3600) * 1000,
      backoffBaseMs: integer(env, "JOB_BACKOFF_BASE_MS", 1000, 1, 3_600_000),
      backoffMaxMs: integer(env, "JOB_BACKOFF_MAX_MS", 300_000, 1, 86_400_000),
      pollIntervalMs: integer(env, "JOB_POLL_INTERVAL_MS", 1000, 10, 60_000),
    },
    tickEnabled: boolean(env, "TICK_ENABLED", true),
    subscriptionGraceHours: integer(env, "SUBSCRIPTION_GRACE_HOURS", 72, 0, 24 * 60),
    licenseUpgradeGraceHours: integer(env, "LICENSE_UPGRADE_GRACE_HOURS", 72, 0, 24 * 366),
    planChanges: { gateway_a: planChanges(env, "GATEWAY_A"), gateway_b: planChanges(env, "GATEWAY_B") },
    checkoutExpiryMinutes: integer(env, "CHECKOUT_EXPIRY_MINUTES", 1440, 1, 366 * 24 * 60),
    discountHoldMinutes: integer(env, "DISCOUNT_HOLD_MINUTES", 60, 1, 366 * 24 * 60),
    licenseSigningKey: licenseKey(env, nodeEnv),
    installDomain: text(env, "INSTALL_DOMAIN") ?? "installs.localhost",
    rateLimits: rateLimits(env),
    trustProxy: boolean(env, "TRUST_PROXY", false),
    allowPrivateProviderUrls: boolean(env, "ALLOW_PRIVATE_PROVIDER_URLS", false),
    allowPrivateWebhookUrls: boolean(env, "ALLOW_PRIVATE_WEBHOOK_URLS", false),
    downloadLinkTtlSeconds: integer(env, "DOWNLOAD_LINK_TTL_SECONDS", 900, 10, 7 * 24 * 3600),
    emailDownloadLinkTtlHours: integer(env, "EMAIL_DOWNLOAD_LINK_TTL_HOURS", 168, 1, 30 * 24),
    downloadSourceTimeoutSeconds: integer(env, "DOWNLOAD_SOURCE_TIMEOUT_SECONDS", 15, 1, 120),
    seedDemo: boolean(env, "SEED_DEMO_CATALOG", nodeEnv !== "production"),
    demoProviderBaseUrl:
      url(env, "DEMO_PROVIDER_BASE_URL", ["http:", "https:"]) ??
      `http://127.0.0.1:${integer(env, "PROVIDER_SIM_PORT", 4010, 0, 65535)}`,
    mail,
    metrics: metricsSettings(env),
    outgoingWebhooks: {
      timeoutSeconds: integer(env, "OUTGOING_WEBHOOK_TIMEOUT_SECONDS", 10, 1, 60),
      retrySchedule: retrySchedule(env, "OUTGOING_WEBHOOK_RETRY_SCHEDULE"),
      replayPerSecond: integer(env, "WEBHOOK_REPLAY_PER_SECOND", 10, 1, 1000),
    },
  };
}
