import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../adapters/config/env-parsers.ts";
import { loadProviderSimConfig } from "../../provider-sim/config.ts";

describe("loadProviderSimConfig", () => {
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

  test("each invalid variable is named in the error", () => {
    const invalid: Record<string, string>[] = [
      { PROVIDER_SIM_PORT: "abc" },
      { PROVIDER_SIM_PORT: "70000" },
      { PROVIDER_SIM_CONTROL: "yes please" },
      { PROVIDER_SIM_PUBLIC_URL: "ftp://example.com" },
      { LOG_LEVEL: "loud" },
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
