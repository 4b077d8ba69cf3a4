import { ConfigError, type Env, text } from "../../kit/env-parsers.ts";
import type { NodeEnv } from "./config.ts";

/** `LICENSE_SIGNING_KEY`: a PKCS#8 PEM private key, required in production (generated elsewhere when unset). */
export function licenseKey(env: Env, nodeEnv: NodeEnv): string | undefined {
  const pem = text(env, "LICENSE_SIGNING_KEY");
  if (pem === undefined && nodeEnv === "production") {
    throw new ConfigError("LICENSE_SIGNING_KEY", "is required when NODE_ENV=production", undefined);
  }
  if (pem !== undefined && !pem.includes("BEGIN PRIVATE KEY")) {
    throw new ConfigError("LICENSE_SIGNING_KEY", "must be a PKCS#8 PEM private key", undefined);
  }
  return pem;
}
