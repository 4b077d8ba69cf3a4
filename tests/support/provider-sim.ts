import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { type RunningService, startService } from "./process.ts";

export const SIM_TOKEN = "sim-test-token-0123456789abcdef";
export const SIM_HMAC_SECRET = "sim-test-hmac-secret-0123456789abcdef";

export interface RunningProviderSim extends RunningService {
  /** The mail sandbox, e.g. `smtp://127.0.0.1:40123`: an `SMTP_URL` for the marketplace. */
  readonly smtpUrl: string;
}

/** The bundled provider simulator as a real process on free ports (HTTP and SMTP), controls enabled. */
export async function startProviderSim(env: Record<string, string | undefined> = {}): Promise<RunningProviderSim> {
  const smtpPort = env.PROVIDER_SIM_SMTP_PORT ?? String(await freePort());
  const service = await startService(
    "provider-sim/main.ts",
    {
      PROVIDER_SIM_TOKEN: SIM_TOKEN,
      PROVIDER_SIM_HMAC_SECRET: SIM_HMAC_SECRET,
      PROVIDER_SIM_CONTROL: "true",
      ...env,
      PROVIDER_SIM_SMTP_PORT: smtpPort,
    },
    { readyPath: "/health", portVariable: "PROVIDER_SIM_PORT" },
  );
  return { ...service, smtpUrl: `smtp://127.0.0.1:${smtpPort}` };
}
