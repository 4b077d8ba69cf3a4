import { ConfigError, integer } from "../adapters/config/env-parsers.ts";
import { createProviderSimApp } from "./app.ts";

let port: number;
try {
  port = integer(process.env, "PROVIDER_SIM_PORT", 4010, 0, 65535);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const server = Bun.serve({ hostname: process.env.HOST ?? "0.0.0.0", port, fetch: createProviderSimApp().fetch });
console.log(
  JSON.stringify({
    level: "info",
    name: "provider-sim",
    url: `http://localhost:${server.port}`,
    msg: "provider simulator listening",
  }),
);

const shutdown = async () => {
  await server.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
