import { Cron } from "croner";
import { SERVER_BODY_LIMIT } from "../kit/body-parser.ts";
import { ConfigError } from "../kit/env-parsers.ts";
import { createLogger } from "../kit/logger.ts";
import { portInUseMessage } from "../kit/port-in-use.ts";
import { loadProviderSimConfig, type ProviderSimConfig } from "./config.ts";
import { wireProviderSim } from "./wiring.ts";

const SHUTDOWN_GRACE_MS = 5_000;

let config: ProviderSimConfig;
try {
  config = loadProviderSimConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, name: "provider-sim" });
const sim = wireProviderSim({ config, logger });
// No idle timeout: a `hang` fault must stay pending until the client gives up.
function serve() {
  try {
    return Bun.serve({
      hostname: config.host,
      port: config.port,
      idleTimeout: 0,
      maxRequestBodySize: SERVER_BODY_LIMIT,
      fetch: sim.app.fetch,
    });
  } catch (error) {
    const taken = portInUseMessage(error, config.port, "PROVIDER_SIM_PORT");
    if (!taken) throw error;
    console.error(`provider-sim: ${taken}`);
    process.exit(1);
  }
}
const server = serve();

async function listenForMail() {
  try {
    return await sim.listenForMail();
  } catch (error) {
    const taken = portInUseMessage(error, config.smtpPort, "PROVIDER_SIM_SMTP_PORT");
    if (!taken) throw error;
    console.error(`provider-sim: ${taken}`);
    process.exit(1);
  }
}
const smtp = await listenForMail();
const tick = new Cron("* * * * *", { protect: true }, () => {
  const changed = sim.tick();
  if (changed > 0) logger.info({ changed }, "tick changed tenants");
});

logger.info(
  {
    url: `http://${config.host}:${server.port}`,
    smtp_url: `smtp://${config.host}:${smtp.port}`,
    public_url: config.publicUrl,
    controls: config.controls,
    hmac: config.hmacSecret !== undefined,
    plans: config.plans.map((plan) => plan.id),
    gateway_sandboxes: sim.gateways.mounted,
    marketplace_url: config.marketplaceUrl,
    // Printed once so a developer can call the simulator; a configured token is never logged.
    ...(config.tokenGenerated ? { generated_bearer_token: config.token } : {}),
  },
  "provider simulator listening",
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "provider simulator stopping");
  tick.stop();
  sim.faults.clear();
  sim.gateways.clear();
  await Promise.race([Promise.all([server.stop(), smtp.close()]), Bun.sleep(SHUTDOWN_GRACE_MS)]);
  await server.stop(true);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
