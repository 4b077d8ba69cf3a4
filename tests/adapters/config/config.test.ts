import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../../adapters/config/config.ts";

// Built from parts so a scan for committed private keys does not mistake test fixtures for one.
const PEM_BEGIN = ["-----BEGIN", "PRIVATE KEY-----"].join(" ");
const PEM_END = ["-----END", "PRIVATE KEY-----"].join(" ");

describe("loadConfig", () => {
  test("defaults describe a development machine", () => {
    expect(loadConfig({})).toMatchObject({
      nodeEnv: "development",
      port: 3000,
      providerSimPort: 4010,
      databaseUrl: undefined,
      dataDir: ".data",
      jwtIssuer: "marketplace",
      currency: "USD",
      bodyLimitBytes: 1024 * 1024,
      admin: undefined,
      passwordResetTtlSeconds: 3600,
    });
    expect(loadConfig({ PASSWORD_RESET_TTL_SECONDS: "900" }).passwordResetTtlSeconds).toBe(900);
  });

  test.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL"],
    [{ DATABASE_URL: "mysql://db/x" }, "DATABASE_URL"],
    [{ NODE_ENV: "production" }, "JWT_SECRET"],
    [{ JWT_SECRET: "too-short" }, "JWT_SECRET"],
    [{ NODE_ENV: "production", JWT_SECRET: "x".repeat(40) }, "SECRETS_KEY"],
    [{ SECRETS_KEY: "too-short" }, "SECRETS_KEY"],
    [{ NODE_ENV: "production", JWT_SECRET: "x".repeat(40), SECRETS_KEY: "k".repeat(40) }, "LICENSE_SIGNING_KEY"],
    [{ LICENSE_SIGNING_KEY: "not a pem" }, "LICENSE_SIGNING_KEY"],
    [{ JOB_MAX_ATTEMPTS: "0" }, "JOB_MAX_ATTEMPTS"],
    [{ PASSWORD_RESET_TTL_SECONDS: "30" }, "PASSWORD_RESET_TTL_SECONDS"],
    [{ PASSWORD_RESET_TTL_SECONDS: "90000" }, "PASSWORD_RESET_TTL_SECONDS"],
    [{ ADMIN_EMAIL: "a@b.co" }, "ADMIN_PASSWORD"],
    [{ ADMIN_PASSWORD: "secret-pass" }, "ADMIN_EMAIL"],
    [{ MARKETPLACE_CURRENCY: "usd" }, "MARKETPLACE_CURRENCY"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ SMTP_URL: "http://mail.example.com" }, "SMTP_URL"],
    [{ SMTP_URL: "smtp://mail.example.com:587" }, "MAIL_FROM"],
    [{ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "not an address" }, "MAIL_FROM"],
    [{ OPS_EMAIL: "ops@example.com" }, "OPS_EMAIL"],
    [{ SMTP_URL: "smtp://m.example.com", MAIL_FROM: "s@example.com", OPS_EMAIL: "ops" }, "OPS_EMAIL"],
    [{ ADMIN_EMAIL: "x,eve@victim.example", ADMIN_PASSWORD: "secret-pass" }, "ADMIN_EMAIL"],
    [{ ADMIN_EMAIL: "Admin <admin@example.com>", ADMIN_PASSWORD: "secret-pass" }, "ADMIN_EMAIL"],
    [
      { SMTP_URL: "smtp://m.example.com", MAIL_FROM: "s@example.com", OPS_EMAIL: "ops@x.example,eve@y.example" },
      "OPS_EMAIL",
    ],
    [{ SMTP_URL: "smtp://m.example.com", MAIL_FROM: "s@example.com", OPS_EMAIL: "Ops <ops@example.com>" }, "OPS_EMAIL"],
    [{ SMTP_URL: "smtp://m.example.com", MAIL_FROM: "Shop <a@example.com, eve@victim.example>" }, "MAIL_FROM"],
    [{ SMTP_URL: "smtp://m.example.com", MAIL_FROM: "Shop\u0007 <a@example.com>" }, "MAIL_FROM"],
    [{ ALLOW_PRIVATE_WEBHOOK_URLS: "yes" }, "ALLOW_PRIVATE_WEBHOOK_URLS"],
    [{ OUTGOING_WEBHOOK_RETRY_SCHEDULE: "5s,5min" }, "OUTGOING_WEBHOOK_RETRY_SCHEDULE"],
    [{ OUTGOING_WEBHOOK_RETRY_SCHEDULE: "5s,,5m" }, "OUTGOING_WEBHOOK_RETRY_SCHEDULE"],
    [{ OUTGOING_WEBHOOK_RETRY_SCHEDULE: "0s" }, "OUTGOING_WEBHOOK_RETRY_SCHEDULE"],
    [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN"],
    [{ METRICS_HOST: "0.0.0.0" }, "METRICS_HOST"],
    [{ METRICS_HOST: "10.0.0.5" }, "METRICS_HOST"],
    [{ METRICS_HOST: "127.0.0.1.example.com" }, "METRICS_HOST"],
    [{ METRICS_PORT: "70000" }, "METRICS_PORT"],
  ])("%o is refused naming %s", (env, variable) => {
    try {
      loadConfig(env);
      throw new Error("expected a ConfigError");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as ConfigError).message).toStartWith(`Invalid configuration: ${variable} `);
    }
  });

  test("a secret value is never echoed in the error line", () => {
    expect(() => loadConfig({ JWT_SECRET: "tiny-secret" })).toThrow(/^(?!.*tiny-secret).*$/);
    expect(() => loadConfig({ SMTP_URL: "ftp://user:smtp-pass@mail" })).toThrow(/^(?!.*smtp-pass).*$/);
  });

  test("mail: off by default; SMTP_URL with MAIL_FROM (bare or named) and OPS_EMAIL turn it on", () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: undefined, opsEmail: undefined });
    const mail = loadConfig({
      SMTP_URL: "smtps://shop:pass@mail.example.com:465",
      MAIL_FROM: "Example Shop <shop@example.com>",
      OPS_EMAIL: "ops@example.com",
    }).mail;
    expect(mail).toEqual({
      smtpUrl: "smtps://shop:pass@mail.example.com:465",
      from: "Example Shop <shop@example.com>",
      opsEmail: "ops@example.com",
    });
  });

  test("outgoing webhooks: retried on Svix's schedule unless OUTGOING_WEBHOOK_RETRY_SCHEDULE says otherwise", () => {
    expect(loadConfig({}).outgoingWebhooks).toEqual({
      timeoutSeconds: 10,
      retrySchedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      replayPerSecond: 10,
    });
    expect(loadConfig({ WEBHOOK_REPLAY_PER_SECOND: "3" }).outgoingWebhooks.replayPerSecond).toBe(3);
    expect(() => loadConfig({ WEBHOOK_REPLAY_PER_SECOND: "0" })).toThrow("WEBHOOK_REPLAY_PER_SECOND");
    expect(loadConfig({ OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms,20ms,40ms" }).outgoingWebhooks.retrySchedule).toEqual([
      10, 20, 40,
    ]);
    expect(() => loadConfig({ OUTGOING_WEBHOOK_RETRY_SCHEDULE: "5s,soon" })).toThrow(
      'Invalid configuration: OUTGOING_WEBHOOK_RETRY_SCHEDULE must be up to 99 comma-separated waits such as 5s,5m,2h (ms, s, m, h or d; each up to 7d) (got "5s,soon")',
    );
  });

  test("private addresses: webhooks have their own switch, off whatever the provider switch says", () => {
    expect(loadConfig({})).toMatchObject({ allowPrivateProviderUrls: false, allowPrivateWebhookUrls: false });
    expect(loadConfig({ ALLOW_PRIVATE_PROVIDER_URLS: "true" })).toMatchObject({
      allowPrivateProviderUrls: true,
      allowPrivateWebhookUrls: false,
    });
    expect(loadConfig({ ALLOW_PRIVATE_WEBHOOK_URLS: "true" })).toMatchObject({
      allowPrivateProviderUrls: false,
      allowPrivateWebhookUrls: true,
    });
  });

  test("production with a long secret and a database is accepted", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      JWT_SECRET: "x".repeat(40),
      SECRETS_KEY: "k".repeat(40),
      LICENSE_SIGNING_KEY: `${PEM_BEGIN}\nMC4CAQAwBQYDK2VwBCIEIA==\n${PEM_END}`,
      DATABASE_URL: "postgres://u@db:5432/app",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "a long password",
    });
    expect(config).toMatchObject({ nodeEnv: "production", logLevel: "info", admin: { email: "admin@example.com" } });
  });

  describe("gateway live addresses", () => {
    const production = {
      NODE_ENV: "production",
      JWT_SECRET: "x".repeat(40),
      SECRETS_KEY: "k".repeat(40),
      LICENSE_SIGNING_KEY: `${PEM_BEGIN}\nMC4CAQAwBQYDK2VwBCIEIA==\n${PEM_END}`,
    };

    test("in production, a live address other than the gateway's own host stops the start", () => {
      expect(() => loadConfig({ ...production, GATEWAY_B_LIVE_BASE_URL: "https://stripe.proxy.example" })).toThrow(
        "Invalid configuration: GATEWAY_B_LIVE_BASE_URL in production, gateway_b's live address must be https://api.stripe.com",
      );
      expect(() => loadConfig({ ...production, GATEWAY_A_LIVE_BASE_URL: "https://sandbox-api.paddle.com" })).toThrow(
        ConfigError,
      );
      expect(loadConfig(production).gatewayHosts).toEqual({ liveOfficialHostsOnly: true });
    });

    test("GATEWAY_ALLOW_CUSTOM_BASE_URLS=true allows another; outside production any address goes", () => {
      const custom = { GATEWAY_B_LIVE_BASE_URL: "https://stripe.proxy.example" };
      expect(loadConfig({ ...production, ...custom, GATEWAY_ALLOW_CUSTOM_BASE_URLS: "true" }).gatewayHosts).toEqual({
        liveOfficialHostsOnly: false,
      });
      expect(loadConfig(custom).gatewayHosts).toEqual({ liveOfficialHostsOnly: false });
      expect(() => loadConfig({ GATEWAY_ALLOW_CUSTOM_BASE_URLS: "maybe" })).toThrow(ConfigError);
    });
  });

  test("metrics: served on loopback without a token by default, behind the token when one is set", () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, host: "127.0.0.1", port: 9464 });
    const token = "t".repeat(40);
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_HOST: "::1", METRICS_PORT: "0" }).metrics).toEqual({
      token,
      host: "::1",
      port: 0,
    });
    expect(() => loadConfig({ METRICS_TOKEN: "short-token" })).toThrow(/^(?!.*short-token).*$/);
  });
});
