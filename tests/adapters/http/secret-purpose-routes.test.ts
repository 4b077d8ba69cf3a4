import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aPointOfSaleProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV } from "../../support/gateway-env.ts";
import { call, expectProblemShape } from "../../support/http.ts";
import { type WebhookReceiver, webhookReceiver } from "../../support/webhook-receiver.ts";

/**
 * An admin (or a stolen admin token) tries to send a write-only secret to a host of their own:
 * every way the configuration offers is refused before anything leaves, and the host hears nothing.
 */
const db = useTestDatabase();
const ENV = {
  ...GATEWAY_TEST_ENV,
  GATEWAY_B_LIVE_API_KEY: "sk_live_stripe_secret_value_321",
  GATEWAY_B_LIVE_WEBHOOK_SECRET: "whsec_stripe_live_webhook_secret_654",
  SMTP_URL: "smtp://127.0.0.1:1",
  MAIL_FROM: "shop@shop.example",
  OPS_EMAIL: "ops@shop.example",
};
const WEBHOOK_SECRETS = [
  "gateway_a_sandbox_webhook_secret",
  "gateway_a_live_webhook_secret",
  "gateway_b_sandbox_webhook_secret",
  "gateway_b_live_webhook_secret",
];
const API_KEYS = [
  "gateway_a_sandbox_api_key",
  "gateway_a_live_api_key",
  "gateway_b_sandbox_api_key",
  "gateway_b_live_api_key",
];
const VALUES = Object.entries(ENV)
  .filter(([name]) => /_(API_KEY|WEBHOOK_SECRET)$/.test(name))
  .map(([, value]) => value);

let marketplace: ReturnType<typeof createTestMarketplace>;
let collector: WebhookReceiver;
let admin = "";
const adminId = crypto.randomUUID();

beforeAll(async () => {
  collector = webhookReceiver(() => Response.json({ code: "TENANT_NOT_FOUND" }, { status: 404 }));
  marketplace = createTestMarketplace(db.current.sql, {}, { env: ENV });
  admin = await tokenFor("admin", adminId);
});
afterAll(async () => {
  collector.stop();
  await marketplace.close();
});

const as = (method: string, path: string, body?: object) =>
  call(marketplace.app, method, path, { token: admin, ...(body ? { body } : {}) });

const unsavedTest = (config: Record<string, unknown>) =>
  as("POST", "/api/admin/fulfillment/test-connection", {
    fulfillment_driver: "multitenant_saas",
    fulfillment_config: { ...aPointOfSaleProduct().fulfillment_config, base_url: collector.url, ...config },
  });

/** Nothing any attempt sent carried a gateway secret. */
const expectNoGatewaySecretLeft = () => {
  const heard = JSON.stringify(collector.received);
  for (const value of VALUES) expect(heard).not.toContain(value);
};

describe("an unsaved fulfillment config naming a gateway secret", () => {
  test.each([...WEBHOOK_SECRETS, ...API_KEYS])(
    "%s: 422 naming both purposes; the host receives nothing, so no webhook can be forged with it",
    async (ref) => {
      const before = collector.received.length;
      for (const auth_mode of ["bearer", "hmac"]) {
        const refused = await unsavedTest({ credentials_ref: ref, auth_mode });
        expectProblemShape(refused, 422, "SECRET_PURPOSE_MISMATCH");
        const wanted = auth_mode === "hmac" ? "provider_hmac_key" : "provider_bearer_token";
        const kind = ref.endsWith("webhook_secret") ? "gateway_webhook_secret" : "gateway_api_key";
        expect(refused.body.detail).toContain(`(${kind})`);
        expect(refused.body.detail).toContain(`(${wanted})`);
        expect(refused.body.errors).toEqual([
          { path: "/fulfillment_config/credentials_ref", code: "SECRET_PURPOSE_MISMATCH", message: expect.any(String) },
        ]);
      }
      expect(collector.received.length).toBe(before);
      expectNoGatewaySecretLeft();
    },
  );

  /** `gateway_b_live_webhook_secret` as `GATEWAY_B_LIVE_WEBHOOK_SECRET`, `gateway-b-live-…`, `gateway.b.live.…` and mixed. */
  const spellings = (ref: string) => {
    const words = ref.split("_");
    const mixed = words
      .map((word, i) => (i % 2 === 0 ? word.toUpperCase() : word))
      .reduce((spelled, word, i) => `${spelled}${["-", ".", "_"][i % 3]}${word}`);
    return [ref.toUpperCase(), words.join("-"), words.join("."), mixed];
  };

  test.each([...WEBHOOK_SECRETS, ...API_KEYS].flatMap(spellings))(
    "%s names the same secret: 422, and the host receives nothing",
    async (ref) => {
      const before = collector.received.length;
      const refused = await unsavedTest({ credentials_ref: ref, auth_mode: "bearer" });
      expectProblemShape(refused, 422, "SECRET_PURPOSE_MISMATCH");
      expect(refused.body.detail).toMatch(/\(gateway_(webhook_secret|api_key)\)/);
      expect(collector.received.length).toBe(before);
      expectNoGatewaySecretLeft();
    },
  );

  test("nor can a saved product be given one", async () => {
    const product = aPointOfSaleProduct();
    const refused = await as("POST", "/api/admin/products", {
      ...product,
      fulfillment_config: { ...product.fulfillment_config, credentials_ref: "gateway_b_sandbox_webhook_secret" },
    });
    expectProblemShape(refused, 422, "SECRET_PURPOSE_MISMATCH");
    expect(collector.received).toEqual([]);
  });
});

describe("a gateway environment pointed at another host with another secret", () => {
  test.each([
    ["api_key_ref", "gateway_b_sandbox_webhook_secret"],
    ["api_key_ref", "gateway_b_live_webhook_secret"],
    ["api_key_ref", "gateway_a_sandbox_api_key"],
    ["api_key_ref", "gateway_b_live_api_key"],
    ["client_key_ref", "gateway_b_sandbox_webhook_secret"],
    ["client_key_ref", "gateway_b_sandbox_api_key"],
  ])("%s = %s: 422 naming both purposes, nothing saved, nothing sent", async (field, ref) => {
    const refused = await as("PUT", "/api/admin/gateway_b/settings", {
      sandbox: { base_url: collector.url, [field]: ref },
    });
    expectProblemShape(refused, 422, "SECRET_PURPOSE_MISMATCH");
    expect(refused.body.errors).toEqual([
      {
        path: `/sandbox/${field}`,
        code: "SECRET_PURPOSE_MISMATCH",
        message: expect.stringMatching(new RegExp(`^${ref} is .* cannot be used as a gateway_b sandbox`)),
      },
    ]);
    const settings = await as("GET", "/api/admin/gateway_b/settings");
    expect(settings.body.sandbox.base_url).toBe(GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL);
    expect(collector.received).toEqual([]);
  });

  test("a provider's token cannot become a gateway's key", async () => {
    const stored = await as("PUT", "/api/admin/secrets/pos_token", {
      value: "pos-value",
      purpose: "provider_bearer_token",
    });
    expect(stored.status).toBe(204);
    const refused = await as("PUT", "/api/admin/gateway_a/settings", {
      sandbox: { base_url: collector.url, api_key_ref: "pos_token" },
    });
    expectProblemShape(refused, 422, "SECRET_PURPOSE_MISMATCH");
    expect(refused.body.detail).toContain("provider bearer token (provider_bearer_token)");
    expect(refused.body.detail).toContain("gateway_a sandbox API key (gateway_api_key)");
  });

  test("settings stored with such a pairing before are refused at test-connection, and the host hears nothing", async () => {
    await db.current.sql`
      insert into gateway_settings (gateway, environment, sandbox, live, webhook_tolerance_seconds, timeout_seconds)
      values ('gateway_a', 'sandbox',
        ${db.current.sql.json({ base_url: collector.url, api_key_ref: "gateway_a_sandbox_webhook_secret", client_key_ref: null, webhook_secret_ref: "gateway_a_sandbox_webhook_secret", previous_webhook_secret_ref: null })},
        ${db.current.sql.json({ base_url: "https://api.paddle.test", api_key_ref: "gateway_a_live_api_key", client_key_ref: null, webhook_secret_ref: "gateway_a_live_webhook_secret", previous_webhook_secret_ref: null })},
        300, 2)`;
    await marketplace.deps.changes.publish("gateway_settings");
    const refused = await as("POST", "/api/admin/gateway_a/test-connection");
    expectProblemShape(refused, 422, "SECRET_PURPOSE_MISMATCH");
    expect(refused.body.errors).toContainEqual(expect.objectContaining({ path: "/sandbox/api_key_ref" }));
    expect(collector.received).toEqual([]);
    await db.current.sql`delete from gateway_settings where gateway = 'gateway_a'`;
    await marketplace.deps.changes.publish("gateway_settings");
  });
});

describe("what is allowed is audited", () => {
  test("a provider token goes where a test sends it, audited, and operations are told of the new address once", async () => {
    await as("PUT", "/api/admin/secrets/collector_token", {
      value: "provider-token-value",
      purpose: "provider_bearer_token",
    });
    const before = collector.received.length;
    for (let i = 0; i < 2; i++) {
      const tested = await unsavedTest({ credentials_ref: "collector_token" });
      expect(tested.status).toBe(200);
    }
    // The positive control: the collector does hear what may be sent, so its silence above means something.
    expect(collector.received.slice(before).map((r) => r.headers.authorization)).toEqual([
      "Bearer provider-token-value",
      "Bearer provider-token-value",
    ]);
    const log = await as("GET", `/api/admin/audit-log?target_id=collector_token&action=fulfillment.test_connection`);
    expect(log.body.items).toHaveLength(2);
    expect(log.body.items[0]).toMatchObject({
      actor_id: adminId,
      target_type: "secret",
      summary: { saved: false, base_url: collector.url, credentials_ref: "collector_token", auth_mode: "bearer" },
    });
    const emails = await db.current.sql<{ recipient: string; data: Record<string, string> }[]>`
      select recipient, data from emails where template = 'ops.secret_destination' and data ->> 'target_id' = 'collector_token'`;
    expect([...emails]).toEqual([
      {
        recipient: "ops@shop.example",
        data: expect.objectContaining({ address: collector.url, actor_id: adminId, via: "test-connection" }),
      },
    ]);
  });

  test("a gateway's new address is audited and told; its test-connection is audited", async () => {
    const updated = await as("PUT", "/api/admin/gateway_b/settings", { sandbox: { base_url: collector.url } });
    expect(updated.status).toBe(200);
    const change = await as(
      "GET",
      "/api/admin/audit-log?target_id=gateway_b_sandbox_api_key&action=secret.destination_change",
    );
    expect(change.body.items).toEqual([
      expect.objectContaining({
        actor_id: adminId,
        summary: {
          ref: "gateway_b_sandbox_api_key",
          purpose: "gateway_api_key",
          address: collector.url,
          previous: GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL,
          via: "gateway_b settings",
        },
      }),
    ]);
    const [email] = await db.current.sql<{ data: Record<string, string> }[]>`
      select data from emails where template = 'ops.secret_destination' and data ->> 'target_id' = 'gateway_b_sandbox_api_key'`;
    expect(email?.data).toMatchObject({ address: collector.url, via: "gateway_b settings" });

    await as("POST", "/api/admin/gateway_b/test-connection");
    const tests = await as("GET", "/api/admin/audit-log?target_id=gateway_b&action=gateway.test_connection");
    expect(tests.body.items).toEqual([
      expect.objectContaining({
        actor_id: adminId,
        summary: { environment: "sandbox", base_url: collector.url, api_key_ref: "gateway_b_sandbox_api_key" },
      }),
    ]);
    // Its own key went to its own (admin-set) sandbox address; no webhook secret ever left.
    const heard = JSON.stringify(collector.received);
    for (const name of [
      "GATEWAY_A_SANDBOX_WEBHOOK_SECRET",
      "GATEWAY_A_LIVE_WEBHOOK_SECRET",
      "GATEWAY_B_SANDBOX_WEBHOOK_SECRET",
      "GATEWAY_B_LIVE_WEBHOOK_SECRET",
    ] as const) {
      expect(heard).not.toContain(ENV[name]);
    }
  });
});

describe("declared purposes", () => {
  test("a secret is stored for a purpose and listed with it; a gateway's well-known reference keeps its own", async () => {
    const stored = await as("PUT", "/api/admin/secrets/stripe_proxy_key", {
      value: "v",
      purpose: "gateway_api_key",
      gateway: "gateway_b",
      environment: "live",
    });
    expect(stored.status).toBe(204);
    const listed = await as("GET", "/api/admin/secrets");
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({
        ref: "stripe_proxy_key",
        purpose: "gateway_api_key",
        gateway: "gateway_b",
        environment: "live",
      }),
    );
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({
        ref: "gateway_b_sandbox_webhook_secret",
        purpose: "gateway_webhook_secret",
        gateway: "gateway_b",
        environment: "sandbox",
      }),
    );
    const renamed = await as("PUT", "/api/admin/secrets/gateway_b_sandbox_webhook_secret", {
      value: "attacker-chosen",
      purpose: "provider_bearer_token",
    });
    expectProblemShape(renamed, 422, "SECRET_PURPOSE_MISMATCH");
  });

  test("a reference is stored, listed and audited under its one name, however the path spells it", async () => {
    for (const ref of [
      "GATEWAY_B_LIVE_WEBHOOK_SECRET",
      "gateway-b-live-webhook-secret",
      "Gateway.B.Live_Webhook-Secret",
    ]) {
      const renamed = await as("PUT", `/api/admin/secrets/${ref}`, {
        value: "attacker",
        purpose: "provider_bearer_token",
      });
      expectProblemShape(renamed, 422, "SECRET_PURPOSE_MISMATCH");
    }
    expect(
      await as("PUT", "/api/admin/secrets/Spelled-Key.One", { value: "v", purpose: "smtp_password" }),
    ).toMatchObject({
      status: 204,
    });
    const refs = (await as("GET", "/api/admin/secrets")).body.items.map((item: { ref: string }) => item.ref);
    expect(refs.filter((ref: string) => /spelled/i.test(ref))).toEqual(["spelled_key_one"]);
    const [entry] = await db.current.sql<{ target_id: string }[]>`
      select target_id from audit_log where action = 'secret.set' and target_id ilike 'spelled%'`;
    expect(entry?.target_id).toBe("spelled_key_one");
  });

  test("a gateway purpose needs its gateway and environment; others take neither", async () => {
    const missing = await as("PUT", "/api/admin/secrets/k1", {
      value: "v",
      purpose: "gateway_api_key",
      gateway: "gateway_a",
    });
    expectProblemShape(missing, 422, "VALIDATION_FAILED");
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: "/environment", code: "REQUIRED" })]);
    const extra = await as("PUT", "/api/admin/secrets/k2", {
      value: "v",
      purpose: "smtp_password",
      gateway: "gateway_a",
    });
    expectProblemShape(extra, 422, "VALIDATION_FAILED");
    expect(extra.body.errors).toEqual([expect.objectContaining({ path: "/gateway", code: "NOT_ALLOWED" })]);
  });
});
