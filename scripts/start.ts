/**
 * `npm start`: the whole system on one machine. The provider simulator and the marketplace run
 * as two processes (as they would in production); signals reach both and the first exit ends both.
 */
import { ConfigError, loadConfig } from "../adapters/config/config.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const env = { ...process.env };
const sim = Bun.spawn(["bun", "provider-sim/main.ts"], {
  env: { ...env, PROVIDER_SIM_PORT: String(config.providerSimPort) },
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
