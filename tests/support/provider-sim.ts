import { type RunningService, startService } from "./process.ts";

export const SIM_TOKEN = "sim-test-token-0123456789abcdef";
export const SIM_HMAC_SECRET = "sim-test-hmac-secret-0123456789abcdef";

/** The bundled provider simulator as a real process on a free port, controls enabled. */
export function startProviderSim(env: Record<string, string | undefined> = {}): Promise<RunningService> {
  return startService(
    "provider-sim/main.ts",
    {
      PROVIDER_SIM_TOKEN: SIM_TOKEN,
      PROVIDER_SIM_HMAC_SECRET: SIM_HMAC_SECRET,
      PROVIDER_SIM_CONTROL: "true",
      ...env,
    },
    { readyPath: "/health", portVariable: "PROVIDER_SIM_PORT" },
  );
}
