/**
 * `npm start`: the whole system on one machine. The provider simulator and the marketplace run
 * as two processes (as they would in production); signals reach both and the first exit ends both.
 */
import { ConfigError, loadConfig } from "../adapters/config/config.ts";
import { environmentName } from "../adapters/secrets/secret-store.ts";
import { DEMO_PROVIDER_CREDENTIALS_REF } from "../adapters/seed/demo-catalog.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex");
const simUrl = `http://127.0.0.1:${config.providerSimPort}`;

/**
 * A gateway with no sandbox key of its own runs against the simulator's sandbox of it, with a
 * generated key and webhook secret that both processes share. Real sandbox keys are left alone.
 */
function sandboxOf(prefix: "GATEWAY_A" | "GATEWAY_B", path: string): Record<string, string> {
  if (process.env[`${prefix}_SANDBOX_API_KEY`]) return {};
  return {
    [`${prefix}_SANDBOX_API_KEY`]: `${prefix.toLowerCase()}_sim_key_${random()}`,
    [`${prefix}_SANDBOX_CLIENT_KEY`]: `${prefix.toLowerCase()}_sim_client_${random().slice(0, 16)}`,
    [`${prefix}_SANDBOX_WEBHOOK_SECRET`]: `${prefix === "GATEWAY_B" ? "whsec_" : "pdl_ntfset_"}${random()}`,
    [`${prefix}_SANDBOX_BASE_URL`]: process.env[`${prefix}_SANDBOX_BASE_URL`] ?? `${simUrl}/${path}`,
  };
}

// One token for both sides: the simulator accepts it, and the seeded point-of-sale product's
// credentials_ref resolves to it through the SECRET_<REF> environment variable.
const simToken = process.env.PROVIDER_SIM_TOKEN ?? random();
const env = {
  ...process.env,
  ...sandboxOf("GATEWAY_A", "gateway_a"),
  ...sandboxOf("GATEWAY_B", "gateway_b"),
  [environmentName(DEMO_PROVIDER_CREDENTIALS_REF)]: simToken,
};
const sim = Bun.spawn(["bun", "provider-sim/main.ts"], {
  env: {
    ...env,
    PROVIDER_SIM_PORT: String(config.providerSimPort),
    PROVIDER_SIM_TOKEN: simToken,
    PROVIDER_SIM_CONTROL: process.env.PROVIDER_SIM_CONTROL ?? "true",
    PROVIDER_SIM_MARKETPLACE_URL: process.env.PROVIDER_SIM_MARKETPLACE_URL ?? `http://127.0.0.1:${config.port}`,
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const marketplace = Bun.spawn(["bun", "adapters/main.ts"], { env, stdio: ["ignore", "inherit", "inherit"] });
const children = [marketplace, sim];

let stopping = false;
const stopAll = (signal: NodeJS.Signals) => {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));

const first = await Promise.race(children.map(async (child) => ({ child, code: await child.exited })));
if (!stopping) stopAll("SIGTERM");
await Promise.all(children.map((child) => child.exited));
process.exit(stopping && first.child === marketplace ? (marketplace.exitCode ?? 1) : first.code || 1);
