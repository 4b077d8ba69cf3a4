import { TEST_JWT_SECRET, TEST_SECRETS_KEY } from "./credentials.ts";
import { GATEWAY_TEST_SECRETS, SANDBOX } from "./gateway-env.ts";
import { SIM_HMAC_SECRET, SIM_TOKEN } from "./provider-sim.ts";

/** Passwords the tests sign in with; none may ever reach a log line. */
const TEST_PASSWORDS = [
  "correct horse",
  "customer password",
  "buyer password",
  "first password",
  "second password",
  "first admin pw",
  "marketplace-demo-admin",
];

/** Every secret value the test run hands the marketplace: the log scan looks for each of them. */
export const KNOWN_SECRETS: readonly string[] = [
  TEST_JWT_SECRET,
  TEST_SECRETS_KEY,
  SIM_TOKEN,
  SIM_HMAC_SECRET,
  ...GATEWAY_TEST_SECRETS,
  SANDBOX.GATEWAY_A_SANDBOX_API_KEY,
  SANDBOX.GATEWAY_A_SANDBOX_WEBHOOK_SECRET,
  SANDBOX.GATEWAY_B_SANDBOX_API_KEY,
  SANDBOX.GATEWAY_B_SANDBOX_WEBHOOK_SECRET,
  ...TEST_PASSWORDS,
];
