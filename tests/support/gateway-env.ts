/** Gateway configuration of a test marketplace: both gateways in sandbox, pointed at msw hosts. */
export const GATEWAY_TEST_ENV = {
  GATEWAY_A_SANDBOX_BASE_URL: "https://sandbox-api.paddle.test",
  GATEWAY_A_LIVE_BASE_URL: "https://api.paddle.test",
  GATEWAY_A_SANDBOX_API_KEY: "pdl_sdbx_apikey_secret_value_123",
  GATEWAY_A_SANDBOX_CLIENT_KEY: "test_paddle_client_token_456",
  GATEWAY_A_SANDBOX_WEBHOOK_SECRET: "pdl_ntfset_webhook_secret_789",
  GATEWAY_A_LIVE_API_KEY: "pdl_live_apikey_secret_value_321",
  GATEWAY_A_LIVE_WEBHOOK_SECRET: "pdl_ntfset_live_webhook_secret_654",
  GATEWAY_B_SANDBOX_BASE_URL: "https://api.stripe.test",
  GATEWAY_B_SANDBOX_API_KEY: "sk_test_stripe_secret_value_123",
  GATEWAY_B_SANDBOX_CLIENT_KEY: "pk_test_stripe_publishable_456",
  GATEWAY_B_SANDBOX_WEBHOOK_SECRET: "whsec_stripe_webhook_secret_789",
  GATEWAY_TIMEOUT_SECONDS: "2",
} as const;

/** Every value above that must never be seen in a response or a log line. */
export const GATEWAY_TEST_SECRETS = [
  GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_API_KEY,
  GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_WEBHOOK_SECRET,
  GATEWAY_TEST_ENV.GATEWAY_A_LIVE_API_KEY,
  GATEWAY_TEST_ENV.GATEWAY_A_LIVE_WEBHOOK_SECRET,
  GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_API_KEY,
  GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_WEBHOOK_SECRET,
];

/** Lets real local traffic (the provider simulator, PostgreSQL over fetch-less sockets) through msw. */
export function localhostOnly(request: Request): "bypass" | "error" {
  const host = new URL(request.url).hostname;
  return host === "127.0.0.1" || host === "localhost" ? "bypass" : "error";
}

/** Gateway sandbox credentials shared by the end-to-end marketplace and the provider simulator. */
export const SANDBOX = {
  GATEWAY_A_SANDBOX_API_KEY: "e2e_paddle_key_0123456789",
  GATEWAY_A_SANDBOX_CLIENT_KEY: "e2e_paddle_client_0123",
  GATEWAY_A_SANDBOX_WEBHOOK_SECRET: "pdl_ntfset_e2e_secret_0123456789",
  GATEWAY_B_SANDBOX_API_KEY: "sk_test_e2e_0123456789",
  GATEWAY_B_SANDBOX_CLIENT_KEY: "pk_test_e2e_0123456789",
  GATEWAY_B_SANDBOX_WEBHOOK_SECRET: "whsec_e2e_secret_0123456789",
} as const;
