import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../kit/env-parsers.ts";
import { loadProviderSimConfig } from "../../provider-sim/config.ts";

describe("loadProviderSimConfig", () => {
  test("the mail sandbox listens on PROVIDER_SIM_SMTP_PORT: 1025 by default, 0 for any free port, never the HTTP port", () => {
    expect(loadProviderSimConfig({}).smtpPort).toBe(1025);
    expect(loadProviderSimConfig({ PROVIDER_SIM_SMTP_PORT: "2525" }).smtpPort).toBe(2525);
    expect(loadProviderSimConfig({ PROVIDER_SIM_PORT: "0", PROVIDER_SIM_SMTP_PORT: "0" }).smtpPort).toBe(0);
    expect(() => loadProviderSimConfig({ PROVIDER_SIM_PORT: "4999", PROVIDER_SIM_SMTP_PORT: "4999" })).toThrow(
      "Invalid configuration: PROVIDER_SIM_SMTP_PORT must differ from PROVIDER_SIM_PORT",
    );
  });

  test("defaults: port 4010, all interfaces, generated token, no hmac, no controls, default plans", () => {
    const config = loadProviderSimConfig({}, () => "generated-token");
    expect(config).toMatchObject({
      port: 4010,
      host: "0.0.0.0",
      token: "generated-token",
      tokenGenerated: true,
      hmacSecret: undefined,
      controls: false,
      publicUrl: "http://localhost:4010",
      logLevel: "info",
    });
    expect(config.plans.map((plan) => plan.id)).toEqual(["standard", "pro", "enterprise"]);
  });

  test("a given token is used as is; the public URL loses its trailing slash", () => {
    const config = loadProviderSimConfig({
      PROVIDER_SIM_TOKEN: "t0k3n",
      PROVIDER_SIM_PORT: "4999",
      PROVIDER_SIM_PUBLIC_URL: "https://pos.example.com/",
    });
    expect(config).toMatchObject({ token: "t0k3n", tokenGenerated: false, port: 4999 });
    expect(config.publicUrl).toBe("https://pos.example.com");
  });

  test("gateway sandboxes: off by default; each needs its key and webhook secret; webhooks go to the marketplace URL", () => {
    const defaults = loadProviderSimConfig({}, () => "generated-token");
    expect(defaults).toMatchObject({
      gatewayA: undefined,
      gatewayB: undefined,
      marketplaceUrl: "http://127.0.0.1:3000",
    });
    const config = loadProviderSimConfig({
      GATEWAY_A_SANDBOX_API_KEY: "pdl_key",
      GATEWAY_A_SANDBOX_WEBHOOK_SECRET: "pdl_secret",
      GATEWAY_B_SANDBOX_API_KEY: "sk_test_key",
      PROVIDER_SIM_MARKETPLACE_URL: "http://marketplace.test:3000/",
    });
    expect(config.gatewayA).toEqual({ apiKey: "pdl_key", webhookSecret: "pdl_secret" });
    expect(config.gatewayB).toBeUndefined();
    expect(config.marketplaceUrl).toBe("http://marketplace.test:3000");
    expect(() => loadProviderSimConfig({ GATEWAY_A_SANDBOX_API_KEY: "leaked key" })).toThrow(
      /^Invalid configuration: GATEWAY_A_SANDBOX_API_KEY [^"]*$/,
    );
  });

  test("each invalid variable is named in the error", () => {
    const invalid: Record<string, string>[] = [
      { PROVIDER_SIM_PORT: "abc" },
      { PROVIDER_SIM_PORT: "70000" },
      { PROVIDER_SIM_SMTP_PORT: "smtp" },
      { PROVIDER_SIM_SMTP_PORT: "-1" },
      { PROVIDER_SIM_CONTROL: "yes please" },
      { PROVIDER_SIM_PUBLIC_URL: "ftp://example.com" },
      { LOG_LEVEL: "loud" },
      { PROVIDER_SIM_MARKETPLACE_URL: "not a url" },
      { PROVIDER_SIM_MARKETPLACE_URL: "ftp://example.com" },
      { GATEWAY_A_SANDBOX_API_KEY: "two words" },
      { GATEWAY_B_SANDBOX_WEBHOOK_SECRET: "whsec_\u00e9" },
      { PROVIDER_SIM_PLANS: "not json" },
      { PROVIDER_SIM_PLANS: "[]" },
      { PROVIDER_SIM_PLANS: '[{"id":"a","name":"A","billing_intervals":["weekly"]}]' },
      {
        PROVIDER_SIM_PLANS:
          '[{"id":"a","name":"A","billing_intervals":["monthly"]},{"id":"a","name":"B","billing_intervals":["yearly"]}]',
      },
    ];
    for (const env of invalid) {
      const [variable] = Object.keys(env);
      let thrown: unknown;
      try {
        loadProviderSimConfig(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).variable).toBe(variable as string);
      expect((thrown as ConfigError).message).toContain(variable as string);
    }
  });
});
